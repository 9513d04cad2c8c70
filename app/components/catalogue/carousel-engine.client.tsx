import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel, { type UseEmblaCarouselType } from "embla-carousel-react";
import { useEffect, useMemo, type RefObject } from "react";

/** embla's handle on a running carousel. */
export type CarouselApi = NonNullable<UseEmblaCarouselType[1]>;

/**
 * embla (with its autoplay plugin) on a carousel's viewport, which the
 * carousel has already rendered: this component renders nothing. It is its own
 * chunk, loaded once the page has hydrated (carousel.tsx), so embla's 10 kB
 * never stand between a phone and a usable first page; until it arrives the
 * row scrolls by touch and the slides are all reachable.
 */
export default function CarouselEngine({
  viewport,
  autoplayMs,
  reducedMotion,
  onReady,
}: {
  viewport: RefObject<HTMLDivElement>;
  /** How long each slide stays before autoplay moves on. */
  autoplayMs: number;
  /** No autoplay, shorter scrolls. */
  reducedMotion: boolean;
  onReady: (api: CarouselApi | undefined) => void;
}) {
  const plugins = useMemo(
    () =>
      reducedMotion
        ? []
        : [
            Autoplay({
              delay: autoplayMs,
              // Pausing on hover and focus is the carousel's, so a visitor's Pause survives both.
              stopOnInteraction: false,
              stopOnMouseEnter: false,
              stopOnFocusIn: false,
            }),
          ],
    [autoplayMs, reducedMotion],
  );
  const [attach, api] = useEmblaCarousel(
    { loop: true, align: "start", skipSnaps: false, duration: reducedMotion ? 15 : 25 },
    plugins,
  );

  useEffect(() => {
    attach(viewport.current);
    return () => attach(null);
  }, [attach, viewport]);

  useEffect(() => {
    onReady(api);
    return () => onReady(undefined);
  }, [api, onReady]);

  return null;
}
