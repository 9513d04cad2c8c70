import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AboutKallo } from "~/components/about-kallo";
import { HomeShelf } from "~/components/catalogue/movie-row";
import { PlansSection } from "~/components/plans/plans-section";
import { getRequestT } from "~/i18n/translate.server";
import { getOptionalUser } from "~/auth/guards.server";
import { listFeaturedMovies, listTrendingMovies } from "~/services/catalogue-lists.server";
import { listPlansOnOffer } from "~/services/plans.server";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/utils/env.server";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["pages", "plans"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ t, language }, user] = await Promise.all([getRequestT(request, "pages"), getOptionalUser(request)]);
  const children = Boolean(user?.profile.children);
  return {
    title: t("about.title"),
    featured: listFeaturedMovies(12, undefined, children),
    trending: listTrendingMovies(12, undefined, undefined, children),
    plans: listPlansOnOffer(getDb(), language, getEnv().currency),
  };
}

export default function About() {
  const { featured, trending, plans } = useLoaderData<typeof loader>();
  return (
    <div className="pt-6">
      <AboutKallo as="h1" />
      <PlansSection plans={plans} />
      <HomeShelf shelf="featured" movies={featured} />
      <HomeShelf shelf="trending" movies={trending} />
    </div>
  );
}
