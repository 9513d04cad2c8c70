import { describe, expect, it } from "vitest";
import { titleDetailsSchema } from "~/services/title-fields";
import { safeBaseName } from "~/utils/file-names";
import { oneLine, withoutControls } from "~/utils/stored-text";

describe("text people send is stored without control characters", () => {
  it("keeps tabs and line breaks in long texts, none in one-line texts", () => {
    expect(withoutControls("Line one\r\nLine\ttwo\u0000\u001b\u007f\u0085")).toBe("Line one\nLine\ttwo");
    expect(oneLine("Amina\r\n\tBello\u0000")).toBe("Amina Bello");
  });

  it("a title's name and description from a form, the API or an upload's metadata", () => {
    const parsed = titleDetailsSchema.parse({
      name: " Gidan\u0000 Haya\r\nSabon ",
      Description: "Kashi na farko.\r\nKashi na biyu.\u0007",
      cast: "Ali\tNuhu",
      Category: "drama",
    });
    expect(parsed).toEqual({
      name: "Gidan Haya Sabon",
      Description: "Kashi na farko.\nKashi na biyu.",
      cast: "Ali\tNuhu",
      Category: "drama",
      ageRating: null,
    });
    expect(titleDetailsSchema.safeParse({ name: "\u0000\r\n", Category: "drama" }).success).toBe(false);
  });

  it("reduces a file name to a safe base name, whichever slash it uses", () => {
    expect(safeBaseName("..\\..\\evil.mp4")).toBe("evil.mp4");
    expect(safeBaseName("../../etc/passwd")).toBe("passwd");
    expect(safeBaseName("C:\\Users\\Musa\\Fim\u0000.mp4")).toBe("Fim.mp4");
    expect(safeBaseName("..")).toBe("");
    expect(safeBaseName(undefined)).toBe("");
    expect(safeBaseName(`${"a".repeat(300)}.mp4`)).toHaveLength(255);
  });
});
