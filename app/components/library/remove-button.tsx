import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";

/** Remove one title from a list: only the row being removed shows that it is working. */
export function RemoveButton({
  movieId,
  label,
  children,
  pendingText,
}: {
  movieId: string;
  label: string;
  children: ReactNode;
  pendingText: ReactNode;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === "remove" &&
    navigation.formData?.get("movieId") === movieId;
  return (
    <button
      type="submit"
      name="intent"
      value="remove"
      aria-disabled={pending || undefined}
      onClick={(event) => {
        if (pending) event.preventDefault();
      }}
      className="rounded border border-white/20 px-3 py-1.5 text-sm hover:bg-white/5 aria-disabled:cursor-wait aria-disabled:opacity-60"
    >
      <span aria-hidden="true">{pending ? pendingText : children}</span>
      <span className="sr-only">{label}</span>
    </button>
  );
}
