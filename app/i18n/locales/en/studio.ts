/** The provider studio: upload, movie list, statistics. */
const studio = {
  errors: {
    titleRequired: "Movie Title is required",
    titleTooLong: "Movie Title must be at most 200 characters",
    descriptionTooLong: "Description must be at most 5000 characters",
    castTooLong: "Cast must be at most 1000 characters",
    categoryRequired: "Choose a category",
    categoryUnknown: "That category no longer exists; choose another",
    movieRequired: "Choose a movie file",
    movieEmpty: "The movie file is empty",
    wrongExtension: "This type of file is not accepted. Movies: .mp4 .3gp .wmv .avi .mpeg; posters: .jpg .jpeg .png",
    contentMismatch: "This file's content does not match its name: it is not a real movie or image of that type",
    unexpectedFile: "Only a movie and a poster can be uploaded",
    tooLarge: "The file is larger than the upload limit",
    notMultipart: "The upload was not sent as a form with files",
    incomplete: "The upload did not complete; please try again",
  },
} as const;

export default studio;
