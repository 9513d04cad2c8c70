import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";

export type ToastMessage = {
  type: "success" | "error" | "info";
  key: string;
  values?: Record<string, string | number>;
};

type ShownToast = ToastMessage & { id: number };

export const TOAST_DURATION_MS = 3000;
const TOAST_EVENT = "kallo:toast";
let nextId = 1;

/** Show a toast from client code (a fetcher's result, an upload finishing). */
export function showToast(toast: ToastMessage) {
  window.dispatchEvent(new CustomEvent<ToastMessage>(TOAST_EVENT, { detail: toast }));
}

const STYLES: Record<ToastMessage["type"], string> = {
  success: "border-emerald-400/40 bg-emerald-950 text-emerald-50",
  error: "border-red-400/40 bg-red-950 text-red-50",
  info: "border-sky-400/40 bg-sky-950 text-sky-50",
};

/**
 * Server toasts (flashed across a redirect) render in the HTML, so they are
 * seen without JavaScript; with it they close after three seconds.
 */
export function Toaster({ toasts }: { toasts: ToastMessage[] }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<ShownToast[]>(() => toasts.map((toast) => ({ ...toast, id: nextId++ })));

  // The first server toasts are already in state; later ones (after navigations) are appended.
  const initial = useRef(toasts);
  useEffect(() => {
    if (toasts === initial.current || toasts.length === 0) return;
    setShown((current) => [...current, ...toasts.map((toast) => ({ ...toast, id: nextId++ }))]);
  }, [toasts]);
  const remove = useCallback((id: number) => setShown((current) => current.filter((toast) => toast.id !== id)), []);

  useEffect(() => {
    const onToast = (event: Event) => {
      const detail = (event as CustomEvent<ToastMessage>).detail;
      setShown((current) => [...current, { ...detail, id: nextId++ }]);
    };
    window.addEventListener(TOAST_EVENT, onToast);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);

  return (
    <section
      aria-label={t("toast.notifications")}
      data-toaster=""
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4"
    >
      {shown.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onClose={remove} />
      ))}
    </section>
  );
}

function ToastItem({ toast, onClose }: { toast: ShownToast; onClose: (id: number) => void }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = window.setTimeout(() => onClose(toast.id), TOAST_DURATION_MS);
    return () => window.clearTimeout(timer);
  }, [onClose, toast.id]);
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      data-toast-type={toast.type}
      className={`pointer-events-auto flex w-full max-w-md items-start justify-between gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${STYLES[toast.type]}`}
    >
      <p>{t(toast.key, toast.values)}</p>
      <button type="button" onClick={() => onClose(toast.id)} className="text-xs opacity-80 hover:opacity-100">
        {t("toast.close")}
      </button>
    </div>
  );
}
