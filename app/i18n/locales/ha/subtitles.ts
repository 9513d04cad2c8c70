import type en from "../en/subtitles";
import type { DeepStrings } from "../types";

/** Rubutun fassara: shafin masu ɗora fim, menu na shafin kallo, da mai kunnawa ba tare da intanet ba. */
const subtitles: DeepStrings<typeof en> = {
  studio: {
    metaTitle: "Rubutun fassara na {{name}} — Kallo",
    title: "Rubutun fassara",
    heading: "Rubutun fassara na “{{name}}”",
    intro:
      "Fayil ɗaya na rubutun fassara ga kowane harshe, a WebVTT (.vtt) ko SRT (.srt), har zuwa KB {{kb}}. Ana canza SRT zuwa WebVTT; ana cire duk wani salo banda rubutu mai kauri, karkatacce da wanda aka ja layi a ƙasa.",
    back: "Koma ga fina-finaina",
    adminBack: "Koma ga duk fina-finai",
    none: "Wannan fim ba shi da rubutun fassara tukuna.",
    listLabel: "Rubutun fassara na wannan fim",
    columns: {
      language: "Harshe",
      label: "Sunan da masu kallo ke gani",
      size: "Girma",
      updated: "Canji na ƙarshe",
      actions: "Ayyuka",
    },
    sizeKb: "KB {{kb}}",
    view: "Buɗe fayil",
    viewNamed: "Buɗe rubutun fassara na {{label}}",
    formTitle: "Ƙara ko maye gurbin rubutun fassara",
    replaceNote: "Fayil a harshen da fim ɗin ke da shi tuni zai maye gurbinsa.",
    language: "Harshe",
    otherOption: "Wani harshe…",
    otherLanguage: "Wani harshe (alamarsa)",
    otherHint:
      "Alamar harshe ta BCP 47, misali ff don Fulatanci ko en-GB don Turancin Ingila. Ana amfani da ita idan harshen da ke sama “Wani harshe…” ne.",
    label: "Sunan da masu kallo za su gani (ba dole ba)",
    labelHint: "Bar shi babu komai don amfani da sunan harshen da kansa, misali Hausa ko English.",
    file: "Fayil ɗin rubutun fassara (.vtt ko .srt)",
    submit: "Ɗora rubutun fassara",
    submitting: "Ana ɗorawa…",
    delete: "Goge",
    deleteNamed: "Goge rubutun fassara na {{label}}",
    deleting: "Ana gogewa…",
    saved: "An adana rubutun fassara: jimloli {{count}}",
    replaced: "An maye gurbin rubutun fassara: jimloli {{count}}",
    deleted: "An goge rubutun fassara",
    missing: "Waɗannan rubutun fassara ba sa nan tuni",
    link: "Rubutun fassara",
    linkNamed: "Rubutun fassara na {{name}}",
    adminIntro: "Masu gudanarwa na iya goge rubutun fassara na fim; mai fim ɗin ne kaɗai ke ƙara su.",
  },
  languages: {
    ha: "Hausa",
    en: "Turanci",
    fr: "Faransanci",
    ar: "Larabci",
    ff: "Fulatanci",
    yo: "Yarbanci",
    ig: "Igbo",
  },
  menu: {
    label: "Rubutun fassara",
    off: "A kashe",
    apply: "Yi amfani",
    chosen: "Rubutun fassara: {{label}}",
    turnedOff: "An kashe rubutun fassara",
  },
  errors: {
    language: "Zaɓi harshe, ko ka rubuta ingantacciyar alamar harshe kamar ha, en ko fr-CA.",
    labelTooLong: "Sunan ba zai wuce haruffa {{max}} ba.",
    fileRequired: "Zaɓi fayil ɗin rubutun fassara (.vtt ko .srt).",
    empty: "Fayil ɗin babu komai a ciki.",
    tooLarge:
      "Fayil ɗin ya fi KB {{kb}} girma; rubutun fassara na fim gaba ɗaya ya fi haka ƙanƙanta sosai. Shin fayil ɗin da ya dace ne?",
    binary: "Wannan ba fayil ɗin rubutu ba ne. Aika fayil ɗin rubutun fassara na WebVTT (.vtt) ko SRT (.srt).",
    notSubtitles:
      "Wannan fayil ba WebVTT ba ne, ba kuma SRT ba: babu layin da ke faɗin lokutan jimla, kamar 00:00:01,000 --> 00:00:03,000.",
    badTimestamp:
      "Layi na {{line}}: lokutan ba daidai ba ne. Rubuta su a matsayin awa:minti:daƙiƙa,mili-daƙiƙa, ƙarshen kuma bayan farkon.",
    noCues: "Fayil ɗin ba shi da jimla mai rubutu ko ɗaya.",
    notMultipart: "Aika fom ɗin tare da fayil ɗinsa.",
    incomplete: "Fayil ɗin bai iso gaba ɗaya ba. Da fatan za a sake gwadawa.",
    noSpace: "Sabar ba ta da wurin wannan fayil yanzu. Da fatan za a sake gwadawa an jima.",
    unknownAction: "Aikin da ba a sani ba.",
  },
};

export default subtitles;
