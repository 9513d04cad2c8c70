/** The footer's reading pages: terms, privacy, security, help and the app download page. Long texts are arrays of paragraphs. */
const info = {
  terms: {
    title: "Terms and Conditions — Kallo",
    heading: "Terms and Conditions",
    lastUpdated: "Last updated: 22 November 2026",
    intro:
      "These terms are the agreement between you and Kallo when you use the Kallo website or app. By creating an account or watching a title you accept them. Please read them; they are short on purpose.",
    sections: [
      {
        heading: "1. Who may use Kallo",
        paragraphs: [
          "You must be at least 18 years old, or the age of majority where you live, to open an account. Younger viewers may use Kallo only with the approval and under the supervision of a parent or guardian, who is responsible for the account.",
          "Keep your password to yourself. You are responsible for what happens under your account; tell us at once if you think someone else is using it.",
        ],
      },
      {
        heading: "2. Plans, passes and devices",
        paragraphs: [
          "Kallo has a free plan and paid plans. The titles, picture quality and number of screens each plan includes are shown on the Plans page at the time you choose it.",
          "Paid plans are pay-as-you-go passes: you pay in advance for a period (for example a month or a year). A pass ends at the end of its period and does not renew by itself; nothing is charged again unless you buy another pass.",
          "One account may play on one device at a time, unless your plan allows more simultaneous screens; then it may play on up to that number of devices at once. Sharing an account outside your household is not allowed.",
        ],
      },
      {
        heading: "3. Vouchers",
        paragraphs: [
          "A voucher (redeem code) activates a pass for the plan and period it names. Each code can be used once, must be used before its expiry date and cannot be exchanged for cash. Keep it safe: a code that has been redeemed cannot be used again, even if it was redeemed by someone else.",
        ],
      },
      {
        heading: "4. Payments and refunds",
        paragraphs: [
          "Prices are shown before you pay and include the taxes we must charge. Payments are handled by our payment provider; we never see or store your full card details.",
          "All payments are final. We do not give refunds or credits for unused time, partly watched titles or a pass you no longer want, except where the law requires it.",
        ],
      },
      {
        heading: "5. Using the service",
        paragraphs: [
          "Titles are for your personal, non-commercial viewing. You may not copy, download outside the app, re-broadcast, publicly show or sell them, or try to get around the protection of the service.",
          "Comments and ratings must be honest and respectful. We may remove content and suspend or close accounts that break these terms, abuse other people or put the service at risk.",
          "Content creators keep the rights in their films and promise they have the right to publish everything they upload.",
        ],
      },
      {
        heading: "6. Changes to these terms",
        paragraphs: [
          "We may change these terms or our prices. We post the new version on this page with a new date and tell members by email or a notification. For existing members the changes take effect 30 days after posting. If you do not agree, stop using Kallo before then; a pass you have already paid for runs to its end on the old terms.",
        ],
      },
      {
        heading: "7. Availability and liability",
        paragraphs: [
          "We work to keep Kallo available and fast, but the service may sometimes be interrupted for maintenance or by events outside our control. Titles may be added or removed when a producer withdraws them.",
          "To the extent the law allows, Kallo is not liable for indirect losses arising from the use of the service. Nothing in these terms takes away rights you have as a consumer.",
        ],
      },
      {
        heading: "8. Contact",
        paragraphs: [
          "Questions about these terms go to customer care; the address and phone number are at the bottom of every page.",
        ],
      },
    ],
  },
  privacy: {
    title: "Privacy Policy — Kallo",
    heading: "Privacy Policy",
    lastUpdated: "Last updated: 22 November 2026",
    intro: "This policy explains what Kallo collects about you, why, and what you can do about it.",
    sections: [
      {
        heading: "What we collect",
        paragraphs: [
          "Your account: name, email address, phone number and a one-way hash of your password (we cannot read your password).",
          "Your use of the service: the titles you watch and where you stopped (so you can continue), your ratings, comments and watch-later list, your passes, vouchers and payments.",
          "Technical data: your IP address and browser type when you sign in, kept with your session so you can see and end your sessions and so we can stop abuse.",
        ],
      },
      {
        heading: "Why we use it",
        paragraphs: [
          "To run your account, play titles on the plan you have, show your history, keep the service secure, answer you when you contact customer care, and show film makers how many people watch their titles (as totals, never your name).",
          "We do not sell your data and we do not show third-party advertising.",
        ],
      },
      {
        heading: "Cookies",
        paragraphs: [
          "We use a few cookies that the site needs: one that keeps you signed in, one that remembers your language, and a short-lived one that carries a message to the next page. We use no tracking or advertising cookies.",
        ],
      },
      {
        heading: "Who else sees it",
        paragraphs: [
          "Our payment provider receives what it needs to take a payment. Our email provider delivers the messages we send you. Otherwise we share data only when the law requires it.",
        ],
      },
      {
        heading: "How long we keep it",
        paragraphs: [
          "We keep your account data while your account is open. Payment records are kept for as long as tax law requires. When you close your account we delete or anonymise the rest.",
        ],
      },
      {
        heading: "Your rights",
        paragraphs: [
          "You can see and correct your details on your profile page at any time. To get a copy of your data or to delete your account, contact customer care; we answer within 30 days.",
        ],
      },
    ],
  },
  security: {
    title: "Security — Kallo",
    heading: "Security",
    intro: "How we protect your account and your data, and how you can help.",
    sections: [
      {
        heading: "How we protect you",
        paragraphs: [
          "Every page is served over an encrypted connection. Passwords are stored only as a slow one-way hash. Sign-in sessions live on our server, so signing out or blocking an account ends them everywhere at once.",
          "Repeated failed sign-ins are slowed down to stop password guessing. Every page, form and API call checks on the server who you are and what your account may do.",
          "Payments are handled by our payment provider; card numbers never reach our servers.",
        ],
      },
      {
        heading: "How you can help",
        paragraphs: [
          "Use a password of at least 8 characters that you do not use anywhere else. Sign out on shared devices. We will never ask for your password by phone, SMS or email — treat such a request as fraud.",
          "If you forget your password, use “Reset password” on the sign-in page: the link we email works once and expires quickly.",
        ],
      },
      {
        heading: "Reporting a problem",
        paragraphs: [
          "If you think your account has been used by someone else, reset your password and contact customer care. If you have found a security weakness in Kallo, please tell customer care privately and give us time to fix it before sharing it.",
        ],
      },
    ],
  },
  help: {
    title: "Help — Kallo",
    heading: "Help",
    intro: "Answers to the questions viewers ask most. Can’t find yours? Customer care is happy to help.",
    sections: [
      {
        heading: "Your account",
        paragraphs: [
          "Create an account with your name, phone number, email and a password of at least 8 characters. Sign in with your email and password.",
          "Forgot your password? Choose “Reset password” on the sign-in page and we will email you a link that works once.",
          "You can change your name, email and phone number on your profile page. If your account is blocked, contact customer care.",
        ],
      },
      {
        heading: "Plans, passes and vouchers",
        paragraphs: [
          "The free plan lets you watch free titles. A paid pass unlocks premium titles, higher quality and, on some plans, more screens at once.",
          "A pass is paid in advance for the period you choose and ends by itself; nothing renews automatically. Buy a new pass whenever you want to continue.",
          "Have a voucher? Sign in, open Payment and enter the code under “Redeem a voucher”. Each code works once, before its expiry date.",
          "One account plays on one device at a time unless your plan allows more screens.",
        ],
      },
      {
        heading: "Playback on slow networks",
        paragraphs: [
          "Standard definition (SD) needs at least 0.5 Mbps, HD (720p and above) needs about 5 Mbps, and Ultra HD needs about 25 Mbps.",
          "If a title keeps stopping to load, pause it for a minute so more of it loads, move closer to your Wi-Fi router, or close other apps that use the connection. Mobile data is often faster early in the morning and late at night.",
          "Kallo remembers where you stopped, so you can continue a title later on the same account.",
        ],
      },
      {
        heading: "Contact customer care",
        paragraphs: [
          "Write to us or call us. Tell us the email address of your account and, for a payment question, the date and amount.",
        ],
      },
    ],
    emailLabel: "Email",
    phoneLabel: "Phone",
  },
  download: {
    title: "Download Our App — Kallo",
    heading: "Download Our App",
    intro:
      "Kallo is a web app: you install it straight from your browser, with no app store and no large download. Once installed it opens full screen from your home screen like any other app, and it keeps working pages ready when your connection drops.",
    android: "On Android (Chrome)",
    androidSteps: [
      "Open this site in Chrome.",
      "Tap the menu (⋮) at the top right.",
      "Tap “Install app” or “Add to Home screen”, then confirm.",
    ],
    ios: "On iPhone and iPad (Safari)",
    iosSteps: [
      "Open this site in Safari.",
      "Tap the Share button (the square with an arrow).",
      "Scroll down and tap “Add to Home Screen”, then tap Add.",
    ],
    desktop: "On a computer",
    desktopSteps: [
      "In Chrome or Edge, click the install icon at the right of the address bar, or open the menu and choose “Install Kallo”.",
    ],
    note: "The app uses only a little storage. It updates itself the next time you open it while online.",
  },
} as const;

export default info;
