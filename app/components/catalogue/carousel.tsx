import type { CarouselApi } from "./carousel-engine.client";
import {
  Children,
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { useTranslation } from "~/i18n/use-translation";
import { useHydrated } from "~/components/ui/use-hydrated";

export const CAROUSEL_AUTOPLAY_MS = 3000;

/** embla and its autoplay plugin, fetched once the page has hydrated (carousel-engine.client.tsx). */
const CarouselEngine = lazy(() => import("./carousel-engine.client"));

/** 1, 2, 3 and 5 slides at ≥320, ≥400, ≥768 and ≥1024 px — the same widths with and without JavaScript. */
const SLIDE_WIDTHS = {
  cards: "basis-full min-[400px]:basis-1/2 md:basis-1/3 lg:basis-1/5",
  hero: "basis-full",
} as const;

type CarouselProps = {
  /** Accessible name of the region (usually the section heading's text). */
  label: string;
  /** id of a visible heading that names the carousel; preferred over `label` when given. */
  labelledBy?: string;
  variant?: keyof typeof SLIDE_WIDTHS;
  children: ReactNode;
  className?: string;
  /** The section heading, laid out on the same line as the previous/next buttons. */
  heading?: ReactNode;
};

/**
 * Is this slide on screen or next to one that is? For images that should
 * wait until they are about to be seen (the browser's own lazy loading fetches
 * a whole row of slides at once on a slow link). Null until the carousel runs:
 * on the server, without JavaScript and while the page hydrates.
 */
const SlideNearbyContext = createContext<boolean | null>(null);
export const useSlideNearby = () => useContext(SlideNearbyContext);

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    const update = () => setReduced(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return reduced;
}

/**
 * A row of slides. The server renders a plain horizontally scrollable row
 * (`.scroll-row`), so every slide is reachable before and without JavaScript.
 * Once the page has hydrated, embla arrives in a chunk of its own
 * (carousel-engine.client.tsx) and takes over: snapping slides, previous/next buttons,
 * autoplay every 3 s that pauses on hover, on keyboard focus, when the visitor
 * presses Pause, and never starts for people who prefer reduced motion.
 */
export function Carousel({ label, labelledBy, variant = "cards", children, className = "", heading }: CarouselProps) {
  const { t } = useTranslation("pages");
  const slides = Children.toArray(children);
  const total = slides.length;
  const hydrated = useHydrated();
  const reducedMotion = usePrefersReducedMotion();
  const [userPaused, setUserPaused] = useState(false);
  const [canPrevious, setCanPrevious] = useState(false);
  const [canNext, setCanNext] = useState(false);
  const [selected, setSelected] = useState(0);
  const [inView, setInView] = useState<number[]>([0]);
  const [playing, setPlaying] = useState(false);
  const regionId = useId();

  const viewportRef = useRef<HTMLDivElement>(null);
  const [emblaApi, setEmblaApi] = useState<CarouselApi | undefined>(undefined);
  const autoplays = !reducedMotion;

  const autoplay = useCallback(() => emblaApi?.plugins()?.autoplay, [emblaApi]);

  useEffect(() => {
    if (!emblaApi) return;
    const update = () => {
      setCanPrevious(emblaApi.canScrollPrev());
      setCanNext(emblaApi.canScrollNext());
      setSelected(emblaApi.selectedScrollSnap());
      setPlaying(Boolean(emblaApi.plugins()?.autoplay?.isPlaying()));
    };
    const updateInView = () => {
      const visible = emblaApi.slidesInView();
      if (visible.length > 0) setInView(visible);
    };
    update();
    updateInView();
    emblaApi.on("select", update).on("reInit", update).on("autoplay:play", update).on("autoplay:stop", update);
    emblaApi.on("slidesInView", updateInView);
    return () => {
      emblaApi.off("select", update).off("reInit", update).off("autoplay:play", update).off("autoplay:stop", update);
      emblaApi.off("slidesInView", updateInView);
    };
  }, [emblaApi]);

  useEffect(() => {
    if (userPaused) autoplay()?.stop();
  }, [autoplay, userPaused]);

  const pause = () => autoplay()?.stop();
  const resume = () => {
    if (!userPaused && autoplays) autoplay()?.play();
  };

  // embla runs only after hydration (CarouselEngine), so its API is the sign that it took over.
  const enhanced = Boolean(emblaApi);
  const scrollable = canPrevious || canNext;
  // On screen, or one step away in either direction (the row loops).
  const nearby = (index: number) =>
    [index, (index + 1) % total, (index - 1 + total) % total].some((slide) => inView.includes(slide));
  const widths = SLIDE_WIDTHS[variant];

  return (
    <section
      role="region"
      aria-roledescription="carousel"
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      id={regionId}
      data-carousel={variant}
      data-enhanced={enhanced ? "true" : "false"}
      data-selected={selected}
      className={`relative ${className}`}
      onMouseEnter={pause}
      onMouseLeave={resume}
      onFocus={pause}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) resume();
      }}
    >
      {heading || (enhanced && scrollable) ? (
        <div className="mb-3 flex items-end justify-between gap-4">
          <div className="min-w-0">{heading}</div>
          {enhanced && scrollable ? (
            <div className="flex shrink-0 items-center gap-2">
              {autoplays ? (
                <CarouselButton
                  label={playing ? t("carousel.pause") : t("carousel.play")}
                  onClick={() => {
                    if (playing) {
                      setUserPaused(true);
                      autoplay()?.stop();
                    } else {
                      setUserPaused(false);
                      autoplay()?.play();
                    }
                  }}
                >
                  {playing ? <PauseIcon /> : <PlayIcon />}
                </CarouselButton>
              ) : null}
              <CarouselButton
                label={t("carousel.previous")}
                onClick={() => emblaApi?.scrollPrev()}
                disabled={!canPrevious}
              >
                <ChevronIcon direction="left" />
              </CarouselButton>
              <CarouselButton label={t("carousel.next")} onClick={() => emblaApi?.scrollNext()} disabled={!canNext}>
                <ChevronIcon direction="right" />
              </CarouselButton>
            </div>
          ) : null}
        </div>
      ) : null}
      {hydrated ? (
        <Suspense fallback={null}>
          <CarouselEngine
            viewport={viewportRef}
            autoplayMs={CAROUSEL_AUTOPLAY_MS}
            reducedMotion={reducedMotion}
            onReady={setEmblaApi}
          />
        </Suspense>
      ) : null}
      <div
        ref={viewportRef}
        className={enhanced ? "overflow-hidden" : ""}
        aria-live={enhanced && !playing ? "polite" : "off"}
      >
        <div className={enhanced ? "-ml-4 flex touch-pan-y" : "scroll-row"}>
          {slides.map((slide, index) => (
            <div
              key={index}
              role="group"
              aria-roledescription="slide"
              aria-label={t("carousel.slide", { index: index + 1, total })}
              data-slide-index={index}
              className={`min-w-0 shrink-0 grow-0 ${widths} ${enhanced ? "pl-4" : ""}`}
            >
              <SlideNearbyContext.Provider value={enhanced ? nearby(index) : null}>{slide}</SlideNearbyContext.Provider>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

function CarouselButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      className="grid size-9 place-items-center rounded-full border border-white/15 bg-ink-800/80 text-slate-100 transition hover:border-brand-400 hover:text-brand-300 disabled:cursor-not-allowed disabled:opacity-40"
    >
      {children}
    </button>
  );
}

function ChevronIcon({ direction }: { direction: "left" | "right" }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
    >
      <path d={direction === "left" ? "M15 5l-7 7 7 7" : "M9 5l7 7-7 7"} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function PauseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="currentColor">
      <rect x="6" y="5" width="4" height="14" rx="1" />
      <rect x="14" y="5" width="4" height="14" rx="1" />
    </svg>
  );
}

function PlayIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="currentColor">
      <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
    </svg>
  );
}
