import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AboutKallo } from "~/components/about-kallo";
import { HeroCarousel } from "~/components/catalogue/hero-carousel";
import { HomeShelf } from "~/components/catalogue/movie-row";
import { PlansSection } from "~/components/plans/plans-section";
import { ContinueWatchingRow } from "~/components/catalogue/continue-watching";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { loadLandingCatalogue } from "~/services/catalogue-lists.server";
import { listPlansOnOffer } from "~/services/plans.server";
import { getEnv } from "~/utils/env.server";
import { listContinueWatching } from "~/services/continue-watching.server";
import { usesViewerPages } from "~/services/roles";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";
import { loadAfterPlayingSaved } from "~/utils/watch-time";

export const handle: TranslationHandle = { i18n: ["pages", "plans"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ t, language }, user] = await Promise.all([getRequestT(request, "pages"), getOptionalUser(request)]);
  const catalogue = loadLandingCatalogue(undefined, Boolean(user?.profile.children));
  return {
    // A signed-in viewer's page starts where they left off.
    continueWatching: user && usesViewerPages(user.role) ? listContinueWatching(getDb(), user) : [],
    title: t("home.title"),
    description: t("home.description"),
    hero: catalogue.featured.slice(0, 5),
    ...catalogue,
    plans: listPlansOnOffer(getDb(), language, getEnv().currency),
  };
}

/** Leaving a playing film for this page: its position is saved before this page reads it. */
export const clientLoader = loadAfterPlayingSaved;

export default function Landing() {
  const { continueWatching, hero, suggested, action, featured, trending, newest, plans } =
    useLoaderData<typeof loader>();
  const { t } = useTranslation("pages");
  const hasTitles = hero.length + suggested.length + trending.length > 0;
  return (
    <>
      <h1 className="sr-only">{t("home.title")}</h1>
      <ContinueWatchingRow items={continueWatching} />
      {hero.length > 0 ? (
        <section aria-labelledby="hero-heading" className="mx-auto max-w-7xl px-4 pt-6" data-section="hero">
          <h2 id="hero-heading" className="sr-only">
            {t("home.heroLabel")}
          </h2>
          <HeroCarousel movies={hero} headingId="hero-heading" />
        </section>
      ) : null}
      {hasTitles ? (
        <>
          <HomeShelf shelf="suggested" movies={suggested} />
          {action ? <HomeShelf shelf="action" movies={action} /> : null}
          <HomeShelf shelf="featured" movies={featured} />
          <HomeShelf shelf="trending" movies={trending} />
          <HomeShelf shelf="new" movies={newest} />
        </>
      ) : (
        <section className="mx-auto max-w-3xl px-4 py-16 text-center" data-section="empty">
          <h2 className="text-2xl font-bold text-white">{t("home.emptyTitle")}</h2>
          <p className="mt-3 text-slate-300">{t("home.emptyText")}</p>
          <Link
            to="/ContentproviderPage"
            className="mt-6 inline-block rounded-md bg-brand-500 px-5 py-2.5 text-sm font-bold text-ink-950 hover:bg-brand-400"
          >
            {t("home.becomeCreator")}
          </Link>
        </section>
      )}
      <PlansSection plans={plans} />
      <AboutKallo />
    </>
  );
}
