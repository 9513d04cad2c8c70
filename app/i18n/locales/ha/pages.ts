import type en from "../en/pages";
import type { DeepStrings } from "../types";

const pages: DeepStrings<typeof en> = {
  home: {
    title: "Kallo — Fina-finan Hausa da na Afirka",
  },
};

export default pages;
