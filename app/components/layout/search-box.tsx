import { Form, useFetcher, useNavigate } from "@remix-run/react";
import { forwardRef, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import type { SearchSuggestion } from "~/services/search.server";
import { SEARCH_MAX_LENGTH } from "~/utils/form-limits";

type SuggestionsAnswer = { q: string; suggestions: SearchSuggestion[] };

/** Wait this long after the last key before asking: one request per pause, not per letter, on a slow link. */
const TYPING_PAUSE_MS = 180;

/**
 * The search of the top bar: a plain GET form to /moviecategory (it works
 * without JavaScript), which, once the page's script runs, offers films,
 * series and episodes as the viewer types (a combobox with a list; arrows
 * move through it, Enter opens the one chosen, Escape closes it).
 */
export const SearchBox = forwardRef<HTMLInputElement, { className?: string; onDone?: () => void }>(function SearchBox(
  { className = "", onDone },
  ref,
) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-suggestions`;
  const fetcher = useFetcher<SuggestionsAnswer>();
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<number | undefined>(undefined);
  const { load } = fetcher;

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const typed = value.trim();
  const answer = fetcher.data;
  const suggestions = answer && typed.length >= 2 ? answer.suggestions : [];
  const showList = open && typed.length >= 2 && suggestions.length > 0;

  function changed(next: string) {
    setValue(next);
    setActive(-1);
    setOpen(true);
    window.clearTimeout(timer.current);
    if (next.trim().length < 2) return;
    timer.current = window.setTimeout(
      () => load(`/search-suggestions?${new URLSearchParams({ q: next.trim() })}`),
      TYPING_PAUSE_MS,
    );
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Escape") {
      // The first Escape closes the list and keeps the words; the next one clears the box, as the browser does.
      if (showList) event.preventDefault();
      setOpen(false);
      setActive(-1);
      return;
    }
    if (!showList) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      // From the box (-1) through each suggestion and back to the box.
      setActive((current) => {
        const next = current + step;
        if (next < -1) return suggestions.length - 1;
        return next >= suggestions.length ? -1 : next;
      });
    } else if (event.key === "Enter" && active >= 0 && active < suggestions.length) {
      event.preventDefault();
      setOpen(false);
      onDone?.();
      navigate(suggestions[active].href);
    }
  }

  const activeIndex = active >= 0 && active < suggestions.length ? active : -1;

  return (
    <Form
      method="get"
      action="/moviecategory"
      role="search"
      aria-label={t("search.label")}
      className={`relative flex min-w-0 items-center ${className}`}
      onSubmit={() => {
        setOpen(false);
        onDone?.();
      }}
    >
      <label htmlFor={`${id}-q`} className="sr-only">
        {t("search.label")}
      </label>
      <input
        ref={ref}
        id={`${id}-q`}
        type="search"
        name="q"
        required
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        placeholder={t("search.placeholder")}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={activeIndex >= 0 ? `${listId}-${activeIndex}` : undefined}
        value={value}
        onChange={(event) => changed(event.currentTarget.value)}
        onKeyDown={keyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        className="h-10 w-full min-w-0 rounded-l-md border border-white/15 bg-ink-900 px-3 text-sm text-slate-50 placeholder:text-slate-500 focus:ring-2 focus:ring-brand-500 focus:outline-none"
      />
      <button
        type="submit"
        className="grid h-10 w-10 shrink-0 place-items-center rounded-r-md bg-brand-600 text-white hover:bg-brand-700"
      >
        <span className="sr-only">{t("search.submit")}</span>
        <SearchIcon />
      </button>
      <ul
        id={listId}
        role="listbox"
        aria-label={t("search.suggestions")}
        hidden={!showList}
        className="absolute inset-x-0 top-full z-50 mt-1 max-h-[70vh] overflow-y-auto rounded-md border border-white/10 bg-ink-900 py-1 shadow-xl"
      >
        {showList
          ? suggestions.map((suggestion, index) => (
              <li
                key={`${suggestion.kind}:${suggestion.id}`}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === activeIndex}
                data-suggestion-kind={suggestion.kind}
              >
                <Link
                  to={suggestion.href}
                  tabIndex={-1}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    setOpen(false);
                    onDone?.();
                  }}
                  className={`block px-3 py-2 text-sm hover:bg-white/5 ${index === activeIndex ? "bg-white/10" : ""}`}
                >
                  <span className="block truncate font-medium text-slate-50">{suggestion.name}</span>
                  <span className="block truncate text-xs text-slate-400">
                    {suggestion.kind === "episode"
                      ? t("search.episodeOf", { where: suggestion.detail })
                      : suggestion.kind === "series"
                        ? t("search.seriesIn", { category: suggestion.detail })
                        : suggestion.detail}
                  </span>
                </Link>
              </li>
            ))
          : null}
      </ul>
    </Form>
  );
});

export function SearchIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}
