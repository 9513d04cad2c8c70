/** Public pages: landing, about, terms, plans and the footer pages. */
const pages = {
  home: {
    title: "Kallo — Hausa and African films and TV",
  },
} as const;

export default pages;
