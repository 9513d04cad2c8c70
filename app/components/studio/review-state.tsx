import { Form } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import type { ReturnReason } from "~/db/return-reasons";

/**
 * Where a title or a series stands with the administrator, as its provider
 * reads it: approved, waiting, or sent back with the reason and the
 * administrator's words, and then a Resubmit button (a plain form).
 */
export function ReviewState({
  approved,
  returnReason,
  returnNote,
  idField,
  id,
  name,
  back,
  action,
}: {
  approved: boolean;
  returnReason: ReturnReason | null;
  returnNote: string | null;
  idField: "movieId" | "seriesId";
  id: string;
  name: string;
  back?: string;
  /** Where the Resubmit form posts (the page's own action when not given). */
  action?: string;
}) {
  const { t } = useTranslation("studio");
  if (returnReason) {
    return (
      <div className="mt-1 grid gap-1 text-xs" data-review="sentBack">
        <p className="font-semibold text-amber-200">{t("review.sentBack")}</p>
        <p className="text-amber-100">{t(`review.reasons.${returnReason}`)}</p>
        {returnNote ? <p className="whitespace-pre-line text-slate-200">“{returnNote}”</p> : null}
        <Form method="post" action={action}>
          <input type="hidden" name={idField} value={id} />
          {back ? <input type="hidden" name="back" value={back} /> : null}
          <button
            type="submit"
            name="intent"
            value="resubmit"
            aria-label={t("review.resubmitNamed", { name })}
            className="mt-1 rounded bg-brand-600 px-2 py-1 font-semibold text-white hover:bg-brand-700"
          >
            {t("review.resubmit")}
          </button>
        </Form>
      </div>
    );
  }
  return (
    <span className="block text-xs text-slate-300" data-review={approved ? "approved" : "waiting"}>
      {approved ? t("review.approved") : t("review.waiting")}
    </span>
  );
}
