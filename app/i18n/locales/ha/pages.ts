import type en from "../en/pages";
import type { DeepStrings } from "../types";

const pages: DeepStrings<typeof en> = {
  home: {
    title: "Kallo — Fina-finan Hausa da na Afirka",
    description:
      "Kalli fina-finai da shirye-shiryen TV na Hausa da na Afirka, kyauta ko da fasin da kuke biya idan kuna so.",
    heroLabel: "Zaɓaɓɓun fina-finai",
    watchNow: "Kalla Yanzu",
    playlist: "Jerin Kallo",
    playlistLabel: "Saka {{name}} a jerin abin da za ku kalla daga baya",
    suggested: "Shawarwarinmu",
    suggestedIntro: "Fina-finan da masu kallo suka fi ba da maki.",
    action: "Fina-finan Faɗa",
    actionIntro: "Faɗa, gudu da jarumai daga ko'ina a nahiyar.",
    featured: "Zaɓaɓɓu",
    featuredIntro: "Editocinmu ne suka zaɓa.",
    trending: "Masu Tashe",
    trendingIntro: "Abin da aka fi kallo a wannan makon.",
    new: "Sababbi",
    newIntro: "Sababbin finafinan da suka iso.",
    plans: "Tsare-tsare",
    plansIntro: "Fara kyauta. Ku biya ne kawai lokacin da kuke son ƙari, da fasin da ba ya sabunta kansa.",
    plansIntroPaid: "Ku biya ne kawai lokacin da kuke son kallo, da fasin da ba ya sabunta kansa.",
    about: "Game da Kallo",
    emptyTitle: "Fina-finanmu na farko suna kan hanya",
    emptyText:
      "Masu shirya fina-finai suna ɗora ayyukansu. Ku dawo nan ba da jimawa ba, ko ku shiga a matsayin mai shirya fim ku zama na farko.",
    emptyRow: "Babu fim a nan tukuna.",
    becomeCreator: "Zama mai shirya fim",
  },
  card: {
    episodes_one: "Kashi {{count}}",
    episodes_other: "Kashi {{count}}",
    noRatings: "Babu ƙima tukuna",
    rating_one: "Maki {{average}} cikin 5 daga mai kallo {{count}}",
    rating_other: "Maki {{average}} cikin 5 daga masu kallo {{count}}",
    ratingCount_one: "(ƙima {{count}})",
    ratingCount_other: "(ƙima {{count}})",
    minutes: "Minti {{count}}",
    seconds: "Daƙiƙa {{count}}",
    hoursMinutes: "Awa {{hours}} minti {{minutes}}",
    premium: "Na musamman",
    free: "Kyauta",
    noPoster: "Babu hoto",
  },
  continue: {
    title: "Ci gaba da kallo",
    resumeAt: "Ci gaba daga {{time}}",
    nextEpisode: "Kashi na gaba",
    open: "{{title}}: {{where}}",
    progress: "An kalli {{percent}}%",
    remove: "Cire",
    removeNamed: "Cire {{title}} daga Ci gaba da kallo",
    removed: "An cire shi daga Ci gaba da kallo. Yana nan a tarihin kallonku.",
  },
  carousel: {
    previous: "Na baya",
    next: "Na gaba",
    pause: "Dakatar da juyawa",
    play: "Fara juyawa",
    slide: "{{index}} cikin {{total}}",
  },
  about: {
    title: "Game da Mu — Kallo",
    heading: "Game da Kallo",
    paragraphs: [
      "Kallo kalmar Hausa ce. Mun gina shi ne domin fina-finan da aka shirya a Kano, Kaduna, Legas, Accra da ko'ina a Afirka su kai ga mutanen da aka shirya su dominsu — a gida, a hanya da ƙasashen waje — cikin harsunan da suke magana da su.",
      "Kannywood da sauran masana'antar fina-finan Afirka suna ba da labarunmu da barkwancinmu, waƙoƙinmu, karin maganarmu da imaninmu. Sau da yawa ana yawo da waɗannan fina-finai a flash ko a yanka su gunduwa-gunduwa a shafukan bidiyo, masu shirya su kuma ba sa samun komai. A Kallo, mai shirya kowane fim ne yake ɗora shi da kansa, kuma yana ganin yadda ake kallonsa.",
      "Harshe na da muhimmanci a gare mu. Shafin yana magana da Hausa da Turanci, kuma muna son ƙara wasu harsunan Afirka yayin da masu kallo ke nema. Kallon labari da harshen uwa yana raya harshen ga 'ya'yanku; kallon labari da harshen wani kuma shi ne matakin farko na fahimtar shi.",
      "An gina Kallo don irin intanet ɗin da mutane suke da shi a zahiri. Shafuka suna aiki kafin kowace manhaja ta buɗe, fim yana farawa a ingancin da intanet ɗinku zai iya ɗauka, kuma kuna iya farawa kyauta. Idan kuna son ƙari, ku sayi fasin na lokacin da kuka zaɓa — ba ya sabunta kansa.",
    ],
    mission: "Alƙawarinmu",
    missionItems: [
      "Labaran Hausa da na Afirka a gaba, cikin harshen da aka ba da su.",
      "Adalci ga masu shirya fim: kowane fim na mai shirya shi ne wanda ya ɗora shi.",
      "Adalci ga masu kallo: tsarin kyauta, fasin na biya-kamar-yadda-kake-amfani, babu sabuntawa a ɓoye.",
    ],
  },
  plansPage: {
    title: "Tsare-tsare da farashi — Kallo",
    heading: "Zaɓi tsarinku",
    intro:
      "Kwatanta abin da kowane tsari ya ƙunsa. Kowane tsarin biya fasin ne na lokacin da kuka zaɓa, kuma ba ya sabunta kansa.",
    empty: "Babu tsarin da ake bayarwa a yanzu. Da fatan za ku sake dubawa daga baya.",
  },
  offlinePage: {
    title: "Babu intanet — Kallo",
    retry: "Sake gwadawa",
  },
};

export default pages;
