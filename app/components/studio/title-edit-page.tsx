import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import type { FormErrors } from "~/components/ui/form";
import { TitleDetailsForm, type TitleDetailsValues } from "./title-details-form";
import { TitleFacts } from "./title-facts";

/**
 * A title's page for whoever may edit it (its provider in the studio, an
 * administrator): the way back, its name and facts, and its details form;
 * `notes` under the facts and `children` after the form are the page's own.
 */
export function TitleEditPage({
  back,
  here,
  watchTo,
  title,
  categories,
  posterAccept,
  answer,
  notes,
  children,
}: {
  back: { to: string; label: string };
  here: string;
  /** Where its provider watches it in any state (their preview); the public watch page once published otherwise. */
  watchTo?: string;
  title: TitleDetailsValues &
    Parameters<typeof TitleFacts>[0]["title"] & {
      displayName: string;
      series: { name: string } | null;
    };
  categories: { id: string; name: string }[];
  posterAccept: string;
  answer?: (FormErrors & { part: "details" | "film" }) | null;
  notes?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation("studio");
  return (
    <section className="grid max-w-3xl gap-6">
      <div>
        <Link to={back.to} className="text-sm text-brand-300 hover:underline">
          {back.label}
        </Link>
        <h1 className="mt-2 text-2xl font-bold break-words sm:text-3xl">{title.displayName}</h1>
        <TitleFacts title={title} watchTo={watchTo} />
        {notes}
      </div>
      <section aria-labelledby="details-title" className="grid gap-3">
        <h2 id="details-title" className="text-xl font-semibold">
          {t("edit.detailsTitle")}
        </h2>
        <TitleDetailsForm
          action={here}
          values={title}
          categories={categories}
          seriesName={title.series?.name ?? null}
          errors={answer?.part === "details" ? answer : null}
          posterAccept={posterAccept}
        />
      </section>
      {children}
    </section>
  );
}
