import { Form } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";

/**
 * What a provider can do with an unfinished upload the server keeps: continue
 * it by choosing its file again (with JavaScript: the resumable upload goes on
 * from the server's last byte), or discard it (a form, so without JavaScript too).
 */
export function UnfinishedUploadActions({
  uploadId,
  busy,
  hydrated,
  onContinue,
  discardAction,
  discardIntent,
}: {
  uploadId: string;
  busy: boolean;
  hydrated: boolean;
  onContinue: (file: File) => void;
  discardAction: string;
  /** The form's `intent` where the page's action tells its forms apart by it. */
  discardIntent?: string;
}) {
  const { t } = useTranslation("studio");
  return (
    <div className="flex flex-wrap items-center gap-3">
      {hydrated ? (
        <label className="cursor-pointer rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
          {t("upload.continueWith")}
          <input
            type="file"
            className="sr-only"
            disabled={busy}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) onContinue(file);
            }}
          />
        </label>
      ) : null}
      <Form method="post" action={discardAction}>
        {discardIntent ? <input type="hidden" name="intent" value={discardIntent} /> : null}
        <input type="hidden" name="uploadId" value={uploadId} />
        <button
          type="submit"
          className="rounded border border-white/20 px-3 py-1.5 text-sm text-slate-100 hover:bg-white/10"
        >
          {t("upload.discard")}
        </button>
      </Form>
    </div>
  );
}
