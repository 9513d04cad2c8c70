import type en from "../en/common";
import type { DeepStrings } from "../types";

const common: DeepStrings<typeof en> = {
  brand: "Kallo",
  tagline: "Fina-finan Hausa da na Afirka",
  skipToContent: "Tsallaka zuwa abin da ke ciki",
  nav: {
    main: "Babban menu",
    home: "Gida",
    contentCreator: "Mai Shirya Fim",
    plans: "Tsare-tsare",
    about: "Game da mu",
    login: "Shiga",
    notifications: "Sanarwa",
    notificationsUnread: "Sanarwa, {{count}} ba a karanta ba",
    account: "Menu na asusu",
    profile: "Bayanan kai",
    editProfile: "Gyara bayanan kai",
    history: "Tarihin kallo",
    movies: "Fina-finai",
    downloads: "Saukewa",
    categories: "Rukunoni",
    watchLater: "Kallo daga baya",
    saved: "Adanannu",
    payment: "Biya",
    logout: "Fita",
  },
  language: {
    label: "Harshe",
    switchTo: "Canja harshe zuwa {{language}}",
    en: "Turanci",
    ha: "Hausa",
  },
  footer: {
    aboutUs: "Game da Mu",
    terms: "Sharuɗɗa da Ka'idoji",
    pricing: "Farashin Tsare-tsare",
    privacy: "Manufar Sirri",
    security: "Tsaro",
    help: "Taimako",
    downloadApp: "Sauke Manhajarmu",
    customerCare: "Kula da abokan ciniki",
    rights: "© {{year}} Kallo. Duk haƙƙoƙi na mu ne.",
    links: "Ƙasan shafi",
  },
  toast: {
    close: "Rufe",
    notifications: "Sanarwa",
  },
  errors: {
    notFoundTitle: "Ba a Samu ba",
    notFoundText: "Ba mu sami shafin da kuka nema ba. Wataƙila an motsa shi, ko adireshin ba daidai ba ne.",
    goHome: "Je zuwa shafin farko",
    forbiddenTitle: "Ba a yarda ba",
    forbiddenText: "Asusunku ba shi da izinin shiga wannan shafi.",
    serverTitle: "An sami matsala",
    serverText: "Kuskure a cikin sabar",
    tryAgain: "Da fatan za a sake gwadawa nan ba da jimawa ba.",
    badRequestTitle: "Ba a iya karanta buƙatar ba",
    badRequestText: "Abin da aka aika ba fom ne da wannan shafi zai iya karantawa ba. Koma shafin ka sake aikawa.",
    diskFullTitle: "Ba za a iya adana canje-canje yanzu ba",
    diskFullText:
      "Faifan ajiyar Kallo ya cika, don haka ba a adana abin da kuka aika ba. Shafuka da fina-finai suna aiki har yanzu. Da fatan za a sake gwadawa bayan 'yan mintuna.",
  },
  pagination: {
    label: "Shafuka",
    previous: "Shafin baya",
    next: "Shafi na gaba",
    status: "Shafi {{page}} cikin {{pageCount}}",
  },
  watchLater: {
    added: "An ƙara shi cikin jerin kallo-daga-baya",
    removed: "An cire shi daga jerin kallo-daga-baya",
    unknown: "Babu wannan fim a yanzu",
  },
  offline: {
    title: "Ba ku da intanet",
    text: "Kallo na buƙatar haɗi don buɗe wannan shafi. Shafukan da kuka buɗe a baya na iya aiki.",
  },
};

export default common;
