import { describe, expect, it } from "vitest";
import { cleanCueText, convertSubtitles, SUBTITLE_MAX_BYTES } from "~/media/subtitle-files";
import { canonicalLanguageTag, languageAutonym, matchLanguage } from "~/utils/language-tags";

const utf8 = (text: string) => new TextEncoder().encode(text);

function converted(bytes: Uint8Array) {
  const result = convertSubtitles(bytes);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result;
}

describe("SRT to WebVTT", () => {
  it("turns comma timestamps into WebVTT's, drops the cue numbers and keeps the words", () => {
    const srt = [
      "1",
      "00:00:01,000 --> 00:00:03,250",
      "Ina ka je tun safe?",
      "",
      "2",
      "00:01:05,5 --> 01:02:03,040",
      "Na je kasuwa.",
      "Hanya ta cika maƙil.",
      "",
    ].join("\n");
    const result = converted(utf8(srt));
    expect(result.format).toBe("srt");
    expect(result.cues).toBe(2);
    expect(result.vtt).toBe(
      [
        "WEBVTT",
        "",
        "00:00:01.000 --> 00:00:03.250",
        "Ina ka je tun safe?",
        "",
        "00:01:05.500 --> 01:02:03.040",
        "Na je kasuwa.",
        "Hanya ta cika maƙil.",
        "",
      ].join("\n"),
    );
  });

  it("reads CRLF line ends, a byte order mark and one-digit hours", () => {
    const srt = "\uFEFF1\r\n0:00:02,000 --> 0:00:04,000\r\nSannu\r\n\r\n";
    const result = converted(utf8(srt));
    expect(result.encoding).toBe("utf-8");
    expect(result.vtt).toBe("WEBVTT\n\n00:00:02.000 --> 00:00:04.000\nSannu\n");
  });

  it("keeps bold, italic and underline; removes <font> and {\\an8}-style overrides", () => {
    const srt =
      '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<font color="#ffff00"><b>Zo</b> ka <i>zauna</i></font>, <u>yanzu</u>{\\i0}\n';
    expect(converted(utf8(srt)).vtt).toContain("\n<b>Zo</b> ka <i>zauna</i>, <u>yanzu</u>\n");
  });

  it("puts cues in order of their start", () => {
    const srt = "1\n00:00:05,000 --> 00:00:06,000\nsecond\n\n2\n00:00:01,000 --> 00:00:02,000\nfirst\n";
    const vtt = converted(utf8(srt)).vtt;
    expect(vtt.indexOf("first")).toBeLessThan(vtt.indexOf("second"));
  });

  it("keeps a cue's text that a blank line split in two", () => {
    const srt =
      "1\n00:00:01,000 --> 00:00:02,000\nfirst line\n\nsecond line\n\n2\n00:00:03,000 --> 00:00:04,000\nnext\n";
    const result = converted(utf8(srt));
    expect(result.cues).toBe(2);
    expect(result.vtt).toContain("00:00:02.000\nfirst line\nsecond line\n\n00:00:03.000");
  });

  it("reads a file that is not UTF-8 as Windows-1252", () => {
    // "Café “Kallo”" in Windows-1252: é is 0xE9, the curly quotes 0x93 and 0x94.
    const bytes = new Uint8Array([
      ...utf8("1\n00:00:01,000 --> 00:00:02,000\nCaf"),
      0xe9,
      0x20,
      0x93,
      ...utf8("Kallo"),
      0x94,
      0x0a,
    ]);
    const result = converted(bytes);
    expect(result.encoding).toBe("windows-1252");
    expect(result.vtt).toContain("\nCafé “Kallo”\n");
  });

  it("reads UTF-16 with a byte order mark", () => {
    const text = "1\r\n00:00:01,000 --> 00:00:02,000\r\nƊan'uwa\r\n";
    const body = new Uint8Array(2 + text.length * 2);
    body.set([0xff, 0xfe]);
    for (let index = 0; index < text.length; index++) {
      body[2 + index * 2] = text.charCodeAt(index) & 0xff;
      body[3 + index * 2] = text.charCodeAt(index) >> 8;
    }
    const result = converted(body);
    expect(result.encoding).toBe("utf-16");
    expect(result.vtt).toContain("\nƊan'uwa\n");
  });
});

describe("WebVTT in", () => {
  it("keeps valid cue settings and WebVTT markup; drops header text, STYLE, NOTE and identifiers", () => {
    const vtt = [
      "WEBVTT - Kallo",
      "Kind: captions",
      "",
      "STYLE",
      "::cue { background: url(https://evil.example/x) }",
      "",
      "NOTE written by hand",
      "",
      "intro-1",
      "00:01.000 --> 00:02.500 align:start line:0 foo:bar position:10%",
      "<v.loud Musa>Sannu <c.yellow>abokina</c></v>",
      "",
      "00:00:03.000 --> 00:00:04.000",
      "<lang en>Hello</lang> <ruby>漢<rt>kan</rt></ruby>",
      "",
    ].join("\n");
    const result = converted(utf8(vtt));
    expect(result.format).toBe("vtt");
    expect(result.vtt).toBe(
      [
        "WEBVTT",
        "",
        "00:00:01.000 --> 00:00:02.500 align:start line:0 position:10%",
        "<v.loud Musa>Sannu <c.yellow>abokina</c></v>",
        "",
        "00:00:03.000 --> 00:00:04.000",
        "<lang en>Hello</lang> <ruby>漢<rt>kan</rt></ruby>",
        "",
      ].join("\n"),
    );
  });

  it("refuses WebVTT timestamps that break the format", () => {
    const result = convertSubtitles(utf8("WEBVTT\n\n00:01,000 --> 00:02,000\nbad\n"));
    expect(result).toEqual({ ok: false, problem: "badTimestamp", line: 3 });
  });
});

describe("cleaning cue text", () => {
  it("removes scripts with their code, other HTML, and escapes what is left as text", () => {
    expect(cleanCueText('<script>alert("x")</script>Hi <img src=x onerror=alert(1)>there')).toBe("Hi there");
    expect(cleanCueText("<style>p{}</style><div><span>Tom & Jerry</span></div>")).toBe("Tom &amp; Jerry");
    expect(cleanCueText("1 < 2 and 3 > 2 -->")).toBe("1 &lt; 2 and 3 &gt; 2 --&gt;");
    expect(cleanCueText("&amp; &#233; &nbsp;")).toBe("&amp; &#233; &nbsp;");
    expect(cleanCueText("a<br>b<br/>c")).toBe("a\nb\nc");
  });

  it("closes tags left open and drops closings without an opening", () => {
    expect(cleanCueText("<i>open <b>inner")).toBe("<i>open <b>inner</b></i>");
    expect(cleanCueText("stray</i> text</b>")).toBe("stray text");
    expect(cleanCueText("<i><b>crossed</i></b>")).toBe("<i><b>crossed</b></i>");
  });

  it("drops <v> and <lang> without their annotation, and cues left without words", () => {
    expect(cleanCueText("<v>nobody</v>")).toBe("nobody");
    expect(cleanCueText("<i> </i>\n<font>  </font>")).toBe("");
    expect(cleanCueText("<v Ali <b>>x</v>")).toBe("<v Ali &lt;b>&gt;x</v>");
  });
});

describe("files refused", () => {
  it.each([
    ["an empty file", utf8(""), { problem: "empty" }],
    ["only blank lines", utf8("\n\r\n  \n"), { problem: "empty" }],
    ["text that is no subtitles", utf8("Just a letter to my friend.\n"), { problem: "notSubtitles" }],
    ["a WebVTT header with no cues", utf8("WEBVTT\n\nNOTE nothing here\n"), { problem: "noCues" }],
    ["cues with no words", utf8("1\n00:00:01,000 --> 00:00:02,000\n<i></i>\n"), { problem: "noCues" }],
    ["minutes past 59", utf8("1\n00:61:00,000 --> 00:62:00,000\nx\n"), { problem: "badTimestamp", line: 2 }],
    ["letters in a time", utf8("1\n00:00:01,000 --> 00:00:0x,000\nx\n"), { problem: "badTimestamp", line: 2 }],
    ["an end before the start", utf8("1\n00:00:05,000 --> 00:00:02,000\nx\n"), { problem: "badTimestamp", line: 2 }],
    ["an end equal to the start", utf8("1\n00:00:05,000 --> 00:00:05,000\nx\n"), { problem: "badTimestamp", line: 2 }],
    ["three-digit SRT hours", utf8("1\n100:00:01,000 --> 100:00:02,000\nx\n"), { problem: "badTimestamp", line: 2 }],
    [
      "a bad time in a later cue",
      utf8("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03 --> 00:00:04\nno\n"),
      { problem: "badTimestamp", line: 6 },
    ],
    [
      "binary data with NUL bytes",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      { problem: "binary" },
    ],
  ])("%s", (_name, bytes, expected) => {
    expect(convertSubtitles(bytes)).toEqual({ ok: false, ...expected });
  });

  it("binary data without NUL bytes (control characters throughout)", () => {
    const bytes = new Uint8Array(4096);
    for (let index = 0; index < bytes.length; index++) bytes[index] = 1 + ((index * 37) % 254);
    expect(convertSubtitles(bytes)).toEqual({ ok: false, problem: "binary" });
  });

  it("a file over the size limit", () => {
    const cue = "1\n00:00:01,000 --> 00:00:02,000\nline\n\n";
    const bytes = utf8(cue.repeat(Math.ceil((SUBTITLE_MAX_BYTES + 1) / cue.length)));
    expect(bytes.length).toBeGreaterThan(SUBTITLE_MAX_BYTES);
    expect(convertSubtitles(bytes)).toEqual({ ok: false, problem: "tooLarge", maxBytes: SUBTITLE_MAX_BYTES });
    expect(convertSubtitles(bytes.subarray(0, SUBTITLE_MAX_BYTES - (SUBTITLE_MAX_BYTES % cue.length))).ok).toBe(true);
  });
});

describe("language tags", () => {
  it.each([
    ["ha", "ha"],
    ["HA", "ha"],
    [" en ", "en"],
    ["en-gb", "en-GB"],
    ["zh-hant-tw", "zh-Hant-TW"],
    ["ha-Latn-NG", "ha-Latn-NG"],
    ["ff", "ff"],
    ["yue", "yue"],
  ])("accept %j as %j", (input, canonical) => {
    expect(canonicalLanguageTag(input)).toBe(canonical);
  });

  it.each(["", "e", "en_US", "en-", "-en", "123", "en gb", "../ha", "ha.vtt", "x-private", "a".repeat(40), null, 42])(
    "refuse %j",
    (input) => {
      expect(canonicalLanguageTag(input)).toBeNull();
    },
  );

  it("name a language in itself", () => {
    expect(languageAutonym("ha")).toBe("Hausa");
    expect(languageAutonym("en")).toBe("English");
    expect(languageAutonym("fr")).toBe("Français");
  });

  it("match a viewer's choice to a title's tracks by tag, else by language", () => {
    expect(matchLanguage(["en", "ha"], "ha")).toBe("ha");
    expect(matchLanguage(["en-GB", "ha"], "en")).toBe("en-GB");
    expect(matchLanguage(["en"], "en-US")).toBe("en");
    expect(matchLanguage(["en"], "ha")).toBeNull();
    expect(matchLanguage(["en"], null)).toBeNull();
  });
});
