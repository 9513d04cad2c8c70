import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireProvider } from "~/auth/guards.server";
import { useTitleStatusText } from "~/components/studio/title-facts";
import { AdaptivePlayer } from "~/components/watch/adaptive-player";
import { Link } from "~/components/ui/link";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { useTranslation } from "~/i18n/use-translation";
import type { TranslationHandle } from "~/i18n/page-translations";
import { playerChoices } from "~/services/playback.server";
import { listSubtitles } from "~/services/subtitles.server";
import { findOwnTitleForPreview } from "~/services/title-preview.server";
import { metaTitleMeta } from "~/utils/meta";

export const handle: TranslationHandle = { i18n: ["studio", "watch"] };

export const meta = metaTitleMeta;

/**
 * /provider/movie/<id>/watch: a provider watches their own title, in any
 * state, without a pass; the player reports nothing, so it is never counted
 * as a view. Another provider's title is a 404, as if it did not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const db = getDb();
  const title = findOwnTitleForPreview(db, params.id ?? "", provider.id);
  if (!title) throw data(null, { status: 404 });
  const { t } = await getRequestT(request, "studio");
  const player =
    title.status === "ready"
      ? playerChoices(db, {
          movieId: title.id,
          mediaVersion: title.mediaVersion,
          account: provider,
          dataSaver: false,
          quality: "auto",
        })
      : null;
  const subtitles = listSubtitles(db, title.id).map(({ language, label, url }) => ({ language, label, url }));
  return { metaTitle: t("preview.metaTitle", { name: title.name }), title, player, subtitles };
}

export default function ProviderTitlePreview() {
  const { t } = useTranslation("studio");
  const { t: tw } = useTranslation("watch");
  const { title, player, subtitles } = useLoaderData<typeof loader>();
  const status = useTitleStatusText(title);
  return (
    <section className="grid max-w-4xl gap-4">
      <div>
        <Link to={`/provider/movie/${title.id}`} className="text-sm text-brand-300 hover:underline">
          {t("preview.back")}
        </Link>
        <h1 className="mt-2 text-2xl font-bold break-words sm:text-3xl">{t("preview.title", { name: title.name })}</h1>
        <p className="mt-1 text-sm text-slate-300">
          <span data-title-status={title.status}>{status}</span> · {t("preview.notCounted")}
        </p>
      </div>
      {player ? (
        <AdaptivePlayer
          movieId={title.id}
          masterUrl={player.rungs.length > 0 ? player.masterUrl : null}
          fallbackUrl={player.fallbackUrl}
          rungs={player.rungs}
          quality="auto"
          streamQuality="auto"
          poster={null}
          resumeSeconds={0}
          durationSeconds={title.durationSeconds}
          label={tw("page.playerLabel", { name: title.name })}
          subtitles={subtitles}
          subtitleLanguage={null}
          reportProgress={false}
        />
      ) : (
        <p
          role="status"
          className="rounded border border-white/10 bg-ink-900/60 px-4 py-3"
          data-testid="preview-not-ready"
        >
          {title.status === "failed" ? t("preview.failed") : t("preview.processing")}
        </p>
      )}
    </section>
  );
}
