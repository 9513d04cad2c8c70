import type en from "../en/plans";
import type { DeepStrings } from "../types";

const plans: DeepStrings<typeof en> = {
  perMonth: "/wata",
  perYear: "/shekara",
  billedMonthly: "Ana biya kowane wata",
  billedAnnually: "Ana biya sau ɗaya a shekara",
  billingToggle: "Lokacin biya",
  monthly: "Kowane wata",
  annually: "Biyan Shekara",
  save: "Ragi {{percent}}%",
  annualEquivalent: "ko {{price}} a shekara, ana biya sau ɗaya",
  noRenewal: "Fasin na lokacin da kuka zaɓa; ba ya sabunta kansa.",
  choose: "Zaɓi {{plan}}",
  feature: "Abin da ake samu",
  price: "Farashi",
  included: "Akwai",
  notIncluded: "Babu",
  screens_one: "Allo {{count}} a lokaci guda",
  screens_other: "Allo {{count}} a lokaci guda",
  screensLabel: "Allo a lokaci guda",
  maxQualityLabel: "Mafi kyawun hoto",
  quality: {
    sd: "SD",
    hd: "HD (720p+)",
    uhd: "Ultra HD",
  },
  features: {
    hd: "Akwai HD",
    ultraHd: "Akwai Ultra HD",
    simultaneousScreens: "Kallo a kan allo da yawa a lokaci guda",
    multiDevice: "Kwamfuta, talabijin, waya da tablet",
    unlimitedTitles: "Fina-finai da shirye-shiryen TV marasa iyaka",
    cancelAnyTime: "Soke a kowane lokaci",
    firstMonthFree: "Wata na farko kyauta",
    support247: "Tallafi awa 24, kwana 7",
  },
  streamGuidance: "Kallo na buƙatar aƙalla 0.5 Mbps don SD, 5 Mbps don HD, da 25 Mbps don Ultra HD.",
  empty: "Babu tsarin da ake bayarwa a yanzu.",
  comparison: "Kwatanta tsare-tsare",
};

export default plans;
