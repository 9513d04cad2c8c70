import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { AboutKallo } from "~/components/about-kallo";
import { MovieCarouselSection } from "~/components/catalogue/movie-row";
import { PlansSection } from "~/components/plans/plans-section";
import { getRequestT } from "~/i18n/translate.server";
import { listFeaturedMovies, listTrendingMovies } from "~/services/catalogue.server";
import { listPlansOnOffer } from "~/services/plans.server";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/utils/env.server";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["pages", "plans"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const { t, language } = await getRequestT(request, "pages");
  return {
    title: t("about.title"),
    featured: listFeaturedMovies(12),
    trending: listTrendingMovies(12),
    plans: listPlansOnOffer(getDb(), language, getEnv().currency),
  };
}

export default function About() {
  const { featured, trending, plans } = useLoaderData<typeof loader>();
  const { t } = useTranslation("pages");
  return (
    <div className="pt-6">
      <AboutKallo as="h1" />
      <PlansSection plans={plans} />
      <MovieCarouselSection
        id="featured"
        title={t("home.featured")}
        intro={t("home.featuredIntro")}
        movies={featured}
      />
      <MovieCarouselSection
        id="trending"
        title={t("home.trending")}
        intro={t("home.trendingIntro")}
        movies={trending}
      />
    </div>
  );
}
