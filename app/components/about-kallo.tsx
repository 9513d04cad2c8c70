import { useTranslation } from "~/i18n/use-translation";
import { Paragraphs, tList } from "~/components/layout/text-page";

/** The About text promoting Hausa and African language and culture (landing and /about). */
export function AboutKallo({ as = "h2" }: { as?: "h1" | "h2" }) {
  const { t } = useTranslation("pages");
  const Heading = as;
  return (
    <section id="about" aria-labelledby="about-heading" className="mx-auto max-w-7xl px-4 py-10" data-section="about">
      <div className="grid gap-8 rounded-2xl border border-white/10 bg-gradient-to-br from-ink-900 via-ink-900 to-brand-900/30 p-6 sm:p-10 lg:grid-cols-[2fr_1fr]">
        <div>
          <Heading
            id="about-heading"
            className={`${as === "h1" ? "text-3xl sm:text-4xl" : "text-2xl"} font-extrabold tracking-tight text-white`}
          >
            {t("about.heading")}
          </Heading>
          <div className="mt-4 grid gap-4">
            <Paragraphs items={tList(t, "about.paragraphs")} />
          </div>
        </div>
        <div>
          <h3 className="text-sm font-bold tracking-widest text-brand-300 uppercase">{t("about.mission")}</h3>
          <ul className="mt-4 grid gap-3">
            {tList(t, "about.missionItems").map((item) => (
              <li key={item} className="flex gap-3 text-sm text-slate-200">
                <span className="mt-1.5 size-2 shrink-0 rounded-full bg-brand-500" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
