/** Strings shared by every page: navigation, footer, toasts, errors. */
const common = {
  brand: "Kallo",
  tagline: "Hausa and African films and TV",
  skipToContent: "Skip to content",
  nav: {
    main: "Main",
    home: "Home",
    contentCreator: "Content Creator",
    plans: "Plans",
    about: "About",
    login: "Login",
    notifications: "Notifications",
    account: "Account menu",
    profile: "Profile",
    editProfile: "Edit Profile",
    history: "History",
    logout: "Log out",
  },
  language: {
    label: "Language",
    switchTo: "Switch language to {{language}}",
    en: "English",
    ha: "Hausa",
  },
  footer: {
    aboutUs: "About Us",
    terms: "Terms and Conditions",
    pricing: "Pricing Plan",
    privacy: "Privacy Policy",
    security: "Security",
    help: "Help",
    downloadApp: "Download Our App",
    customerCare: "Customer care",
    rights: "© {{year}} Kallo. All rights reserved.",
    links: "Footer",
  },
  toast: {
    close: "Close",
    notifications: "Notifications",
  },
  errors: {
    notFoundTitle: "Not Found",
    notFoundText: "We could not find the page you asked for. It may have moved, or the link may be wrong.",
    goHome: "Go to the home page",
    forbiddenTitle: "Not allowed",
    forbiddenText: "Your account does not have access to this page.",
    serverTitle: "Something went wrong",
    serverText: "Internal server error",
    tryAgain: "Please try again in a moment.",
  },
  pagination: {
    label: "Pages",
    previous: "Previous page",
    next: "Next page",
    status: "Page {{page}} of {{pageCount}}",
  },
  watchLater: {
    added: "Added to your watch-later list",
    removed: "Removed from your watch-later list",
    unknown: "That title is not available",
  },
  offline: {
    title: "You are offline",
    text: "Kallo needs a connection to load this page. Pages you opened before may still work.",
  },
} as const;

export default common;
