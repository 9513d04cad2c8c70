/**
 * Dates on the billing pages: one zone on server and client (so the page
 * hydrates without a mismatch), in the reader's language.
 */
export function dateTimeFormat(language: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(language === "ha" ? "ha-NG" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Africa/Lagos",
  });
}

export function dateFormat(language: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(language === "ha" ? "ha-NG" : "en-GB", {
    dateStyle: "medium",
    timeZone: "Africa/Lagos",
  });
}
