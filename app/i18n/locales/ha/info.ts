import type en from "../en/info";
import type { DeepStrings } from "../types";

const info: DeepStrings<typeof en> = {
  terms: {
    title: "Sharuɗɗa da Ka'idoji — Kallo",
    heading: "Sharuɗɗa da Ka'idoji",
    lastUpdated: "An sabunta a ƙarshe: 22 ga Nuwamba, 2026",
    intro:
      "Waɗannan sharuɗɗa yarjejeniya ce tsakaninku da Kallo lokacin da kuke amfani da shafin ko manhajar Kallo. Idan kun buɗe asusu ko kun kalli fim, kun amince da su. Da fatan za ku karanta su; mun gajarta su da gangan.",
    sections: [
      {
        heading: "1. Wanda zai iya amfani da Kallo",
        paragraphs: [
          "Dole ne shekarunku su kai aƙalla 18, ko shekarun balaga a inda kuke zaune, kafin ku buɗe asusu. Ƙananan masu kallo za su iya amfani da Kallo ne kawai da izinin iyaye ko mai kula da su, wanda shi ne ke da alhakin asusun.",
          "Ku riƙe kalmar sirrinku a asirce. Ku ne ke da alhakin abin da ke faruwa a asusunku; ku sanar da mu nan take idan kuna zaton wani yana amfani da shi.",
        ],
      },
      {
        heading: "2. Tsare-tsare, fasin da na'urori",
        paragraphs: [
          "Kallo yana da tsarin kyauta da tsare-tsaren biya. Fina-finai, ingancin hoto da yawan allo da kowane tsari ya ƙunsa suna a shafin Tsare-tsare a lokacin da kuka zaɓa.",
          "Tsare-tsaren biya fasin ne na biya-kafin-amfani: kuna biya a gaba na wani lokaci (misali wata ɗaya ko shekara ɗaya). Fasin yana ƙarewa a ƙarshen lokacinsa kuma ba ya sabunta kansa; ba za a sake cire kuɗi ba sai kun sayi wani fasin.",
          "Asusu ɗaya yana kunna fim a na'ura ɗaya a lokaci guda, sai dai idan tsarinku ya ba da damar ƙarin allo; a lokacin yana iya kunnawa a kan na'urori har adadin. Ba a yarda a raba asusu da wanda ba na gidanku ba.",
        ],
      },
      {
        heading: "3. Baucoci",
        paragraphs: [
          "Baucan (lambar fansa) yana buɗe fasin na tsari da lokacin da aka rubuta a kai. Ana amfani da kowace lamba sau ɗaya kawai, kafin ranar ƙarewarta, kuma ba a musanya ta da kuɗi. Ku adana ta lafiya: lambar da aka riga aka yi amfani da ita ba za a sake amfani da ita ba, ko da wani ne ya yi amfani da ita.",
        ],
      },
      {
        heading: "4. Biyan kuɗi da mayar da kuɗi",
        paragraphs: [
          "Ana nuna farashi kafin ku biya, kuma ya haɗa da harajin da dole mu karɓa. Kamfanin biyan kuɗinmu ne ke sarrafa biyan; ba ma gani ko adana cikakkun bayanan katinku.",
          "Duk biyan kuɗi na ƙarshe ne. Ba ma mayar da kuɗi ko ba da lamuni na lokacin da ba a yi amfani da shi ba, fim da aka kalla rabi, ko fasin da ba ku so kuma, sai inda doka ta tilasta.",
        ],
      },
      {
        heading: "5. Amfani da sabis ɗin",
        paragraphs: [
          "Fina-finai don kallon kanku ne, ba na kasuwanci ba. Ba a yarda ku kwafa su, ku sauke su a wajen manhajar, ku sake yaɗa su, ku nuna su a bainar jama'a ko ku sayar da su, ko ku yi ƙoƙarin kauce wa kariyar sabis ɗin ba.",
          "Sharhi da ƙima dole su zama na gaskiya kuma cikin ladabi. Za mu iya cire abubuwa, mu dakatar ko mu rufe asusun da ya saɓa wa waɗannan sharuɗɗa, ya ci zarafin wasu ko ya jefa sabis ɗin cikin haɗari.",
          "Masu shirya fina-finai suna riƙe da haƙƙin fina-finansu, kuma sun yi alƙawarin cewa suna da ikon wallafa duk abin da suka ɗora.",
        ],
      },
      {
        heading: "6. Canje-canje ga waɗannan sharuɗɗa",
        paragraphs: [
          "Za mu iya canza waɗannan sharuɗɗa ko farashinmu. Muna wallafa sabon tsarin a wannan shafi da sabuwar rana, kuma muna sanar da membobi ta imel ko sanarwa. Ga membobin da ke nan, canje-canjen suna fara aiki kwana 30 bayan wallafawa. Idan ba ku yarda ba, ku daina amfani da Kallo kafin lokacin; fasin da kuka riga kuka biya yana ci gaba har ƙarshensa bisa tsofaffin sharuɗɗa.",
        ],
      },
      {
        heading: "7. Samuwa da alhaki",
        paragraphs: [
          "Muna ƙoƙarin ganin Kallo yana aiki kuma yana da sauri, amma sabis ɗin na iya tsayawa wani lokaci don gyara ko saboda abubuwan da suka fi ƙarfinmu. Ana iya ƙara ko cire fim idan mai shirya shi ya janye shi.",
          "Gwargwadon abin da doka ta yarda, Kallo ba shi da alhakin asarar da ba kai tsaye ba da ta samo asali daga amfani da sabis ɗin. Babu abin da ke cikin waɗannan sharuɗɗa da ke cire muku haƙƙinku na mai saye.",
        ],
      },
      {
        heading: "8. Tuntuɓa",
        paragraphs: [
          "Tambayoyi game da waɗannan sharuɗɗa a aika su ga sashen kula da abokan ciniki; adireshin da lambar waya suna ƙasan kowane shafi.",
        ],
      },
    ],
  },
  privacy: {
    title: "Manufar Sirri — Kallo",
    heading: "Manufar Sirri",
    lastUpdated: "An sabunta a ƙarshe: 22 ga Nuwamba, 2026",
    intro:
      "Wannan manufa tana bayyana abin da Kallo ke tattarawa game da ku, dalilin haka, da abin da za ku iya yi a kai.",
    sections: [
      {
        heading: "Abin da muke tattarawa",
        paragraphs: [
          "Asusunku: suna, adireshin imel, lambar waya da kalmar sirrinku a ɓoye ta hanyar da ba za a iya juyawa ba (ba za mu iya karanta kalmar sirrinku ba).",
          "Yadda kuke amfani da sabis ɗin: fina-finan da kuke kallo da inda kuka tsaya (don ku ci gaba), ƙimar da kuke bayarwa, sharhi da jerin kallo, fasin, baucoci da biyan kuɗinku.",
          "Bayanan fasaha: adireshin IP da nau'in burauzarku lokacin da kuka shiga, ana adana su tare da zaman shigarku domin ku gani ku kuma rufe zamanku, kuma mu hana cin zarafi.",
        ],
      },
      {
        heading: "Dalilin da muke amfani da su",
        paragraphs: [
          "Don gudanar da asusunku, kunna fina-finai bisa tsarinku, nuna tarihin kallonku, kiyaye tsaron sabis ɗin, amsa muku idan kun tuntuɓi sashen kula da abokan ciniki, da nuna wa masu shirya fim yawan mutanen da ke kallon fina-finansu (a jimlace, ba tare da sunanku ba).",
          "Ba ma sayar da bayananku kuma ba ma nuna tallace-tallacen wasu kamfanoni.",
        ],
      },
      {
        heading: "Kukis",
        paragraphs: [
          "Muna amfani da 'yan kukis da shafin ke buƙata: ɗaya yana riƙe ku a cikin asusunku, ɗaya yana tuna harshenku, ɗaya kuma na ɗan lokaci yana ɗaukar saƙo zuwa shafi na gaba. Ba ma amfani da kukis na bin diddigi ko na talla.",
        ],
      },
      {
        heading: "Wanda kuma ke ganin su",
        paragraphs: [
          "Kamfanin biyan kuɗinmu yana karɓar abin da yake buƙata don karɓar biya. Kamfanin imel ɗinmu yana isar da saƙonnin da muke aiko muku. Banda haka, muna ba da bayanai ne kawai idan doka ta buƙata.",
        ],
      },
      {
        heading: "Tsawon lokacin da muke adana su",
        paragraphs: [
          "Muna adana bayanan asusunku muddin asusun yana buɗe. Ana adana bayanan biyan kuɗi gwargwadon abin da dokar haraji ta buƙata. Idan kun rufe asusunku, muna goge sauran ko mu cire sunanku daga cikinsu.",
        ],
      },
      {
        heading: "Haƙƙoƙinku",
        paragraphs: [
          "Kuna iya gani da gyara bayananku a shafin bayanan kanku a kowane lokaci. Don samun kwafin bayananku ko goge asusunku, ku tuntuɓi sashen kula da abokan ciniki; muna amsawa cikin kwana 30.",
        ],
      },
    ],
  },
  security: {
    title: "Tsaro — Kallo",
    heading: "Tsaro",
    intro: "Yadda muke kare asusunku da bayananku, da yadda za ku taimaka.",
    sections: [
      {
        heading: "Yadda muke kare ku",
        paragraphs: [
          "Ana ba da kowane shafi ta hanyar haɗi mai ɓoyewa. Ana adana kalmomin sirri ne kawai a ɓoye ta hanyar da ba za a iya juyawa ba. Zaman shiga yana kan sabarmu, don haka fita ko toshe asusu yana rufe su a ko'ina a lokaci guda.",
          "Ana rage gudun ƙoƙarin shiga da ya gaza akai-akai don hana hasashen kalmar sirri. Kowane shafi, fom da kiran API yana dubawa a sabar ko wanene ku da abin da asusunku zai iya yi.",
          "Kamfanin biyan kuɗinmu ne ke sarrafa biyan; lambobin kati ba sa isowa sabarmu.",
        ],
      },
      {
        heading: "Yadda za ku taimaka",
        paragraphs: [
          "Yi amfani da kalmar sirri mai haruffa aƙalla 8 wadda ba ku amfani da ita a wani wuri. Ku fita daga asusu a na'urorin da ake rabawa. Ba za mu taɓa neman kalmar sirrinku ta waya, SMS ko imel ba — ku ɗauki irin wannan buƙata a matsayin zamba.",
          "Idan kun manta kalmar sirrinku, ku yi amfani da “Sake saita kalmar sirri” a shafin shiga: hanyar haɗin da muka aika ta imel tana aiki sau ɗaya kuma tana ƙarewa da wuri.",
        ],
      },
      {
        heading: "Sanar da matsala",
        paragraphs: [
          "Idan kuna zaton wani ya yi amfani da asusunku, ku sake saita kalmar sirrinku kuma ku tuntuɓi sashen kula da abokan ciniki. Idan kun gano rauni a tsaron Kallo, da fatan za ku sanar da sashen kula da abokan ciniki a asirce, ku ba mu lokaci mu gyara kafin ku yaɗa shi.",
        ],
      },
    ],
  },
  help: {
    title: "Taimako — Kallo",
    heading: "Taimako",
    intro:
      "Amsoshin tambayoyin da masu kallo suka fi yi. Ba ku ga naku ba? Sashen kula da abokan ciniki zai taimaka muku.",
    sections: [
      {
        heading: "Asusunku",
        paragraphs: [
          "Buɗe asusu da sunanku, lambar waya, imel da kalmar sirri mai haruffa aƙalla 8. Ku shiga da imel da kalmar sirrinku.",
          "Kun manta kalmar sirri? Zaɓi “Sake saita kalmar sirri” a shafin shiga, za mu aiko muku da hanyar haɗi ta imel da ke aiki sau ɗaya.",
          "Kuna iya canza sunanku, imel da lambar waya a shafin bayanan kanku. Idan an toshe asusunku, ku tuntuɓi sashen kula da abokan ciniki.",
        ],
      },
      {
        heading: "Tsare-tsare, fasin da baucoci",
        paragraphs: [
          "Tsarin kyauta yana ba ku damar kallon fina-finan kyauta. Fasin na biya yana buɗe fina-finai na musamman, ingancin hoto mafi girma kuma, a wasu tsare-tsare, ƙarin allo a lokaci guda.",
          "Ana biyan fasin a gaba na lokacin da kuka zaɓa kuma yana ƙarewa da kansa; babu abin da ke sabunta kansa. Ku sayi sabon fasin a duk lokacin da kuke son ci gaba.",
          "Kuna da bauca? Ku shiga, ku buɗe Biyan Kuɗi ku rubuta lambar a ƙarƙashin “Yi amfani da bauca”. Kowace lamba tana aiki sau ɗaya, kafin ranar ƙarewarta.",
          "Asusu ɗaya yana kunna fim a na'ura ɗaya a lokaci guda sai dai idan tsarinku ya ba da ƙarin allo.",
        ],
      },
      {
        heading: "Kallo a kan intanet mai jinkiri",
        paragraphs: [
          "Ingancin SD yana buƙatar aƙalla 0.5 Mbps, HD (720p zuwa sama) yana buƙatar kusan 5 Mbps, Ultra HD kuma yana buƙatar kusan 25 Mbps.",
          "Idan fim yana yawan tsayawa don lodi, ku dakatar da shi na minti ɗaya don ya ƙara lodi, ku matso kusa da na'urar Wi-Fi, ko ku rufe wasu manhajoji da ke amfani da intanet ɗin. Data na waya yakan fi sauri da sassafe da kuma cikin dare.",
          "Kallo yana tuna inda kuka tsaya, don haka kuna iya ci gaba da fim daga baya a kan asusu ɗaya.",
        ],
      },
      {
        heading: "Tuntuɓi sashen kula da abokan ciniki",
        paragraphs: [
          "Ku rubuto mana ko ku kira mu. Ku faɗa mana imel ɗin asusunku kuma, idan tambayar biya ce, ranar da adadin kuɗin.",
        ],
      },
    ],
    emailLabel: "Imel",
    phoneLabel: "Waya",
  },
  download: {
    title: "Sauke Manhajarmu — Kallo",
    heading: "Sauke Manhajarmu",
    intro:
      "Kallo manhajar yanar gizo ce: kuna saka ta kai tsaye daga burauzarku, ba tare da shagon manhajoji ko babban saukewa ba. Idan kun saka ta, tana buɗewa cikakken allo daga allon farko na wayarku kamar kowace manhaja, kuma tana riƙe shafukan da ke aiki idan intanet ya yanke.",
    android: "A Android (Chrome)",
    androidSteps: [
      "Buɗe wannan shafi a Chrome.",
      "Taɓa menu (⋮) a sama ta dama.",
      "Taɓa “Install app” ko “Add to Home screen”, sannan ku tabbatar.",
    ],
    ios: "A iPhone da iPad (Safari)",
    iosSteps: [
      "Buɗe wannan shafi a Safari.",
      "Taɓa maɓallin Share (akwati mai kibiya).",
      "Gangara ƙasa ku taɓa “Add to Home Screen”, sannan ku taɓa Add.",
    ],
    desktop: "A kwamfuta",
    desktopSteps: [
      "A Chrome ko Edge, danna alamar saka manhaja a dama da sandar adireshi, ko buɗe menu ku zaɓi “Install Kallo”.",
    ],
    note: "Manhajar tana amfani da ɗan ƙaramin wurin ajiya. Tana sabunta kanta a gaba da kuka buɗe ta yayin da kuke da intanet.",
  },
};

export default info;
