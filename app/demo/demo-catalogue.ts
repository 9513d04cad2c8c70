/**
 * What the demo catalogue holds: one account per role, the categories with
 * their tile colours, a dozen titles and one series with its episodes, each
 * with the fixed id that makes a second seed find it again. Plain data; the
 * seeding that writes it is seed-demo.server.ts.
 */
import type { AgeRating } from "~/db/age-ratings";
import type { Role } from "~/db/schema";
import type { TileColors } from "~/demo/demo-media.server";

export type DemoAccount = {
  role: Role;
  name: string;
  email: string;
  password: string;
  phoneNumber: string;
  providerName?: string;
};

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    role: "admin",
    name: "Amina Bello",
    email: "admin@kallo.demo",
    password: "kallo-admin-demo",
    phoneNumber: "+234 803 100 0001",
  },
  {
    role: "provider",
    name: "Sani Abdullahi",
    email: "provider@kallo.demo",
    password: "kallo-provider-demo",
    phoneNumber: "+234 803 100 0002",
    providerName: "Arewa Screen Studios",
  },
  {
    role: "viewer",
    name: "Zainab Yusuf",
    email: "viewer@kallo.demo",
    password: "kallo-viewer-demo",
    phoneNumber: "+234 803 100 0003",
  },
];

export const DEMO_ACCOUNT_IDS: Record<Role, string> = {
  admin: "demoadmin",
  provider: "demoprovider",
  viewer: "demoviewer",
};

export type DemoCategory = { name: string; slug: string; colors: TileColors; accent: string };

export const DEMO_CATEGORIES: readonly DemoCategory[] = [
  { name: "Action", slug: "action", colors: ["#7f1d1d", "#ea580c"], accent: "#dc2626" },
  { name: "Romantic", slug: "romantic", colors: ["#831843", "#db2777"], accent: "#db2777" },
  { name: "Comedy", slug: "comedy", colors: ["#854d0e", "#eab308"], accent: "#ca8a04" },
  { name: "Horror", slug: "horror", colors: ["#0c0a09", "#7f1d1d"], accent: "#991b1b" },
  { name: "Adventure", slug: "adventure", colors: ["#064e3b", "#10b981"], accent: "#059669" },
  { name: "Mystery", slug: "mystery", colors: ["#1e1b4b", "#6366f1"], accent: "#4f46e5" },
  { name: "TV Show", slug: "tv-show", colors: ["#0c4a6e", "#0ea5e9"], accent: "#0284c7" },
  { name: "Others", slug: "others", colors: ["#27272a", "#71717a"], accent: "#52525b" },
];

export function demoCategoryId(slug: string): string {
  return `democat${slug.replace(/[^a-z0-9]/g, "")}`;
}

/** The demo's plans are the usual starting set (app/services/starter-plans.ts), under fixed ids, priced in the configured currency. */
export const DEMO_PLAN_IDS = { free: "planfree", basic: "planbasic", pro: "planpro" } as const;

export type DemoTitle = {
  id: string;
  name: string;
  categorySlug: string;
  description: string;
  cast: string;
  featured: boolean;
  access: "free" | "premium";
  uploadedDaysAgo: number;
  /**
   * Views since the upload. Each is a real viewing in `watch_events` (the demo
   * viewer's recent ones below, the rest by the demo audience, spread from the
   * upload to now), so views, viewings and watch time agree everywhere.
   */
  views: number;
  /** The demo viewer's own viewings in the last seven days (their history and Continue watching). */
  recentViewings: number;
  durationSeconds: number;
  /** The film's picture: a lavfi source drawing 640×360 frames at 25 fps. */
  visual: string;
  toneHz: number;
  /** A film's age rating (none: unrated, as a title waiting for the administrator's is; an episode has its series'). */
  ageRating?: AgeRating;
  /** An episode: its season (a DEMO_SERIES season id) and number, and the line under its title card. */
  seasonId?: string;
  episodeNumber?: number;
  filmSubtitle?: string;
};

export const DEMO_TITLES: readonly DemoTitle[] = [
  {
    id: "demomovie01",
    ageRating: "15",
    name: "Jarumin Kauye",
    categorySlug: "action",
    description:
      "When raiders threaten his farming village near Katsina, a quiet blacksmith takes up the sword his father buried. He must unite feuding neighbours before the harvest moon. A story of courage, loyalty and the price of peace.",
    cast: "Abubakar Garba, Hauwa Musa, Ibrahim Lawal, Rabi Tanko",
    featured: true,
    access: "free",
    uploadedDaysAgo: 3,
    views: 124,
    recentViewings: 6,
    durationSeconds: 8,
    visual: "testsrc2=s=640x360:r=25,hue=h=20:s=1.3",
    toneHz: 196,
  },
  {
    id: "demomovie02",
    ageRating: "15",
    name: "Sarkin Yaki",
    categorySlug: "action",
    description:
      "A disgraced general returns from exile to defend the emirate that banished him. Between palace intrigue and open war, he learns who his true allies are. An epic of honour set in the old Hausa kingdoms.",
    cast: "Musa Danjuma, Fatima Idris, Yakubu Shehu",
    featured: true,
    access: "premium",
    uploadedDaysAgo: 12,
    views: 97,
    recentViewings: 4,
    durationSeconds: 9,
    visual: "mandelbrot=s=640x360:r=25:end_scale=0.05,hue=h=-25",
    toneHz: 174.6,
  },
  {
    id: "demomovie03",
    ageRating: "12A",
    name: "Gudun Hijira",
    categorySlug: "action",
    description:
      "Three friends witness a crime at a Kano bus park and must flee across the north with the culprits close behind. Every town on the road brings a new danger and a new ally.",
    cast: "Aliyu Sani, Khadija Bala, Nasiru Aminu",
    featured: false,
    access: "free",
    uploadedDaysAgo: 27,
    views: 61,
    recentViewings: 2,
    durationSeconds: 7,
    visual: "cellauto=s=640x360:r=25:rule=30,lutrgb=r='val':g='val*0.45':b='val*0.12'",
    toneHz: 220,
  },
  {
    id: "demomovie04",
    ageRating: "12",
    name: "Soyayya Da Kudi",
    categorySlug: "romantic",
    description:
      "A young tailor in Zaria falls for the daughter of a wealthy merchant who wants her to marry for money. Their love is tested by family, pride and a wedding that almost happens. A warm romance about what truly makes a good life.",
    cast: "Maryam Usman, Bashir Yahaya, Halima Sule",
    featured: true,
    access: "free",
    uploadedDaysAgo: 6,
    views: 156,
    recentViewings: 5,
    durationSeconds: 8,
    visual:
      "color=c=black:s=160x90:r=25,geq=r='150+90*sin(X/14+T*1.5)':g='60+40*sin(Y/9+T)':b='120+80*sin((X+Y)/16+T*2)',scale=640:360",
    toneHz: 261.6,
  },
  {
    id: "demomovie05",
    ageRating: "12A",
    name: "Zuciyar Masoyi",
    categorySlug: "romantic",
    description:
      "Two students from rival families meet at a poetry evening in Sokoto. Their letters, written in secret, become the talk of the town. A tender story of first love and forgiveness.",
    cast: "Aisha Lawan, Umar Faruk, Zulai Ibrahim",
    featured: false,
    access: "free",
    uploadedDaysAgo: 41,
    views: 43,
    recentViewings: 1,
    durationSeconds: 6,
    visual: "life=s=640x360:r=25:mold=20:ratio=0.08:life_color=#ff6fa5:death_color=#2a0618:mold_color=#5c1037",
    toneHz: 293.7,
  },
  {
    id: "demomovie06",
    ageRating: "PG",
    name: "Dan Kasuwa",
    categorySlug: "comedy",
    description:
      "A fast-talking trader promises his whole market a fortune from one lorry of tomatoes. Nothing goes to plan, and the lorry goes missing. A comedy of schemes, debts and very loud aunties.",
    cast: "Garba Dogo, Saratu Adamu, Lawal Kabir",
    featured: false,
    access: "free",
    uploadedDaysAgo: 9,
    views: 83,
    recentViewings: 3,
    durationSeconds: 7,
    visual: "smptehdbars=s=640x360:r=25,hue=H=2*PI*t/6:s=1.2",
    toneHz: 329.6,
  },
  {
    id: "demomovie07",
    ageRating: "G",
    name: "Mai Gadi",
    categorySlug: "comedy",
    description:
      "A retired soldier becomes the night watchman of a busy Abuja estate and runs it like a barracks. The residents plot to get rid of him, until he saves the day. Light-hearted fun for the whole family.",
    cast: "Idris Mohammed, Binta Sale, Yusuf Auwal",
    featured: false,
    access: "free",
    uploadedDaysAgo: 55,
    views: 27,
    recentViewings: 0,
    durationSeconds: 6,
    visual: "testsrc2=s=640x360:r=25,hue=h=140:s=0.9",
    toneHz: 349.2,
  },
  {
    id: "demomovie08",
    ageRating: "18",
    name: "Inuwar Dare",
    categorySlug: "horror",
    description:
      "A family moves into an old house outside Bauchi where the shadows move on their own after sunset. The grandmother knows the story behind it, but no one will listen. A slow, chilling tale for brave viewers.",
    cast: "Hadiza Baba, Suleiman Ali, Rukayya Musa",
    featured: false,
    access: "premium",
    uploadedDaysAgo: 18,
    views: 71,
    recentViewings: 3,
    durationSeconds: 8,
    visual: "life=s=640x360:r=25:mold=40:ratio=0.05:life_color=#c81e1e:death_color=#050505:mold_color=#2b0000",
    toneHz: 110,
  },
  {
    id: "demomovie09",
    ageRating: "PG",
    name: "Hanyar Sahara",
    categorySlug: "adventure",
    description:
      "A young cameleer joins a salt caravan from Agadez to find the brother who vanished on the same route. Sandstorms, bandits and old legends stand in the way. A sweeping journey across the desert.",
    cast: "Abdulrahman Ibrahim, Salamatu Garba, Haruna Bello",
    featured: true,
    access: "free",
    uploadedDaysAgo: 1,
    views: 49,
    recentViewings: 7,
    durationSeconds: 10,
    visual: "mandelbrot=s=640x360:r=25:start_scale=2:end_scale=0.02:start_x=-0.7436:start_y=0.1318,hue=h=35:s=1.1",
    toneHz: 146.8,
  },
  {
    id: "demomovie10",
    name: "Asirin Gida",
    categorySlug: "mystery",
    description:
      "After her father's sudden death, a lawyer returns home to Kaduna and finds a will that no one has seen before. Every relative has a secret to keep. A gripping family mystery.",
    cast: "Amina Shuaibu, Kabiru Tijjani, Safiya Danladi",
    featured: true,
    access: "premium",
    uploadedDaysAgo: 15,
    views: 111,
    recentViewings: 4,
    durationSeconds: 9,
    visual: "cellauto=s=640x360:r=25:rule=110,lutrgb=r='val*0.3':g='val*0.5':b='val'",
    toneHz: 130.8,
  },
  {
    id: "demomovie11",
    ageRating: "G",
    name: "Unguwar Mu",
    categorySlug: "tv-show",
    description:
      "The everyday lives of neighbours on one busy street in Kano: weddings, rivalries, small businesses and big dreams. A warm drama series told one household at a time.",
    cast: "Hajara Yusuf, Ahmad Kabir, Nafisa Umar, Sani Dauda",
    featured: false,
    access: "free",
    uploadedDaysAgo: 22,
    views: 140,
    recentViewings: 5,
    durationSeconds: 8,
    visual: "testsrc2=s=640x360:r=25,hue=h=210:s=0.8",
    toneHz: 246.9,
  },
  {
    id: "demomovie12",
    ageRating: "G",
    name: "Wakokin Arewa",
    categorySlug: "others",
    description:
      "A musical portrait of northern Nigeria, from kalangu drummers at a Durbar to young singers recording in a Kano studio. Old songs and new voices meet in one celebration of Hausa culture.",
    cast: "Kalangu Ensemble of Zaria, Rahama Sadiq, Danladi Haruna",
    featured: false,
    access: "free",
    uploadedDaysAgo: 34,
    views: 37,
    recentViewings: 2,
    durationSeconds: 7,
    visual:
      "color=c=black:s=160x90:r=25,geq=r='140+80*sin(X/11+T*2)':g='120+70*sin(Y/12+T*1.3)':b='40+30*sin((X-Y)/14+T)',scale=640:360",
    toneHz: 392,
  },
];

/** The demo film with Hausa and English subtitles ("Jarumin Kauye": free, featured). */
export const DEMO_SUBTITLED_TITLE = "demomovie01";

/**
 * One series, so a newcomer sees seasons, episodes, "Continue" and the next
 * episode's card. Its episodes are titles like the films (same files, ladder
 * and rules), short and small; all Free. Uploaded before the newest films, so
 * the films' own order on the lists is as it was.
 */
export const DEMO_SERIES = {
  id: "demoseries01",
  name: "Gidan Haya",
  categorySlug: "tv-show",
  description:
    "A compound of rented rooms in Kano, one landlord and six households who cannot agree on anything. Rent day, weddings and a broken water pump: a warm comedy-drama series.",
  cast: "Maryam Usman, Garba Dogo, Hauwa Musa, Yusuf Auwal",
  ageRating: "PG",
  seasons: [
    { id: "demoseason01", number: 1 },
    { id: "demoseason02", number: 2 },
  ],
} as const;

export const DEMO_EPISODES: readonly DemoTitle[] = [
  {
    id: "demoepisode01",
    name: "Sabon Mai Gida",
    categorySlug: "tv-show",
    description:
      "A new landlord arrives with new rules and a list of repairs no one can pay for. The tenants meet under the neem tree to decide what to do.",
    cast: "Maryam Usman, Garba Dogo, Hauwa Musa",
    featured: false,
    access: "free",
    uploadedDaysAgo: 40,
    views: 66,
    recentViewings: 3,
    durationSeconds: 8,
    visual: "testsrc2=s=640x360:r=25,hue=h=60:s=0.9",
    toneHz: 207.7,
    seasonId: "demoseason01",
    episodeNumber: 1,
    filmSubtitle: "Gidan Haya · S1E1",
  },
  {
    id: "demoepisode02",
    name: "Ranar Kuɗin Haya",
    categorySlug: "tv-show",
    description:
      "Rent day comes early and every household has a different excuse. Only the youngest tenant has a plan, and it involves the landlord's goat.",
    cast: "Maryam Usman, Yusuf Auwal, Hauwa Musa",
    featured: false,
    access: "free",
    uploadedDaysAgo: 33,
    views: 55,
    recentViewings: 1,
    durationSeconds: 6,
    visual: "smptehdbars=s=640x360:r=25,hue=H=2*PI*t/5:s=0.8",
    toneHz: 233.1,
    seasonId: "demoseason01",
    episodeNumber: 2,
    filmSubtitle: "Gidan Haya · S1E2",
  },
  {
    id: "demoepisode03",
    name: "Sabuwar Shekara",
    categorySlug: "tv-show",
    description:
      "A year later, the compound has a new water pump and an old quarrel. A wedding invitation brings everyone back together for one loud night.",
    cast: "Garba Dogo, Hauwa Musa, Yusuf Auwal",
    featured: false,
    access: "free",
    uploadedDaysAgo: 12,
    views: 45,
    recentViewings: 0,
    durationSeconds: 6,
    visual: "cellauto=s=640x360:r=25:rule=90,lutrgb=r='val*0.9':g='val*0.6':b='val*0.3'",
    toneHz: 261.6,
    seasonId: "demoseason02",
    episodeNumber: 1,
    filmSubtitle: "Gidan Haya · S2E1",
  },
];
