import type { TFunction } from "~/i18n/translator";
import type { ReactNode } from "react";

export type TextSection = { heading: string; paragraphs: string[] };

/** A list kept in the catalogue (paragraphs, steps, sections); an empty list if the key is not a list. */
export function tList<T = string>(t: TFunction, key: string): T[] {
  const value: unknown = t(key, { returnObjects: true });
  return Array.isArray(value) ? (value as T[]) : [];
}

export function Paragraphs({ items, className = "" }: { items: string[]; className?: string }) {
  return (
    <>
      {items.map((text, index) => (
        <p key={index} className={`leading-relaxed text-slate-300 ${className}`}>
          {text}
        </p>
      ))}
    </>
  );
}

/** A readable long-text page (terms, privacy, security, help): one h1, sections with h2. */
export function TextPage({
  heading,
  lastUpdated,
  intro,
  sections,
  children,
}: {
  heading: string;
  lastUpdated?: string;
  intro?: string;
  sections: TextSection[];
  children?: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{heading}</h1>
      {lastUpdated ? <p className="mt-2 text-sm text-slate-400">{lastUpdated}</p> : null}
      {intro ? <p className="mt-6 text-lg leading-relaxed text-slate-200">{intro}</p> : null}
      {sections.map((section) => (
        <section key={section.heading} className="mt-10">
          <h2 className="text-xl font-bold text-white">{section.heading}</h2>
          <div className="mt-3 grid gap-3">
            <Paragraphs items={section.paragraphs} />
          </div>
        </section>
      ))}
      {children}
    </article>
  );
}
