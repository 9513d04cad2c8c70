import type en from "../en/studio";
import type { DeepStrings } from "../types";

const studio: DeepStrings<typeof en> = {
  errors: {
    titleRequired: "Ana buƙatar sunan fim",
    titleTooLong: "Sunan fim kada ya wuce haruffa 200",
    descriptionTooLong: "Bayani kada ya wuce haruffa 5000",
    castTooLong: "Jerin 'yan wasa kada ya wuce haruffa 1000",
    categoryRequired: "Zaɓi rukuni",
    categoryUnknown: "Wannan rukunin babu shi yanzu; zaɓi wani",
    movieRequired: "Zaɓi fayil ɗin fim",
    movieEmpty: "Fayil ɗin fim ɗin babu komai a ciki",
    wrongExtension: "Ba a karɓar irin wannan fayil. Fina-finai: .mp4 .3gp .wmv .avi .mpeg; hotuna: .jpg .jpeg .png",
    contentMismatch: "Abin da ke cikin wannan fayil bai dace da sunansa ba: ba ainihin fim ko hoto na irin wannan ba ne",
    unexpectedFile: "Fim ɗaya da hoto ɗaya kawai ake iya ɗorawa",
    tooLarge: "Fayil ɗin ya fi iyakar girman ɗorawa",
    notMultipart: "Ba a aika ɗorawar a matsayin fom mai fayiloli ba",
    incomplete: "Ɗorawar ba ta kammala ba; da fatan a sake gwadawa",
  },
};

export default studio;
