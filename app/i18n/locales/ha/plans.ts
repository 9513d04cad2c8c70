import type en from "../en/plans";
import type { DeepStrings } from "../types";

const plans: DeepStrings<typeof en> = {
  noRenewal: "Fasin yana ɗaukar tsawon lokacin da kuka zaɓa; ba ya sabunta kansa.",
  choose: "Zaɓi {{plan}}",
  feature: "Abin da ake samu",
  price: "Farashi",
  freePrice: "Kyauta",
  from: "Daga {{price}} {{period}}",
  per: {
    day: "a rana",
    week: "a mako",
    month: "a wata",
    year: "a shekara",
  },
  included: "Akwai",
  notIncluded: "Babu",
  screens_one: "Allo {{count}} a lokaci guda",
  screens_other: "Allo {{count}} a lokaci guda",
  screensLabel: "Allo a lokaci guda",
  maxQualityLabel: "Mafi kyawun hoto",
  premiumLabel: "Finafinan Premium",
  downloadsLabel: "Saukewa don kallo ba tare da intanet ba",
  quality: {
    upTo: "Har zuwa {{rung}}p ({{kind}})",
    low: "mai rage amfani da data",
    sd: "SD",
    hd: "HD",
    fullHd: "Full HD",
  },
  titles_one: "Fim {{count}} a lokaci guda",
  titles_other: "Finafinai {{count}} a lokaci guda",
  keptDays_one: "ana ajiye su kwana {{count}}",
  keptDays_other: "ana ajiye su kwana {{count}}",
  playHours_one: "awa {{count}} bayan fara kallo",
  playHours_other: "awa {{count}} bayan fara kallo",
  downloadTerms: "{{titles}}, {{kept}}, {{hours}}",
  allows: {
    premium: "Har da finafinan Premium",
    freeOnly: "Finafinan kyauta kaɗai",
    downloads: "Saukewa don kallo ba tare da intanet ba: {{terms}}",
    noDownloads: "Babu saukewa don kallo ba tare da intanet ba",
  },
  streamGuidance:
    "Finafinai suna daidaita da saurin intanet ɗinku: SD yana aiki daga 0.5 Mbps, HD yana buƙatar kusan 5 Mbps.",
  empty: "Babu tsarin da ake bayarwa a yanzu.",
  comparison: "Kwatanta tsare-tsare",
};

export default plans;
