import { describe, expect, it } from "vitest";
import {
  dataSaverRung,
  downlinkHintKbps,
  estimateAutoCost,
  megabytesOf,
  mostPlayedRung,
  playsAv1Family,
  rungsForLink,
  type CostRung,
} from "~/media/data-cost";

/** A 20-minute film's rungs as the ladder makes them (peak about a quarter above the average). */
const rungs: CostRung[] = [
  [144, 150, 22],
  [240, 275, 40],
  [360, 550, 80],
  [480, 1000, 148],
  [720, 2130, 316],
].map(([rung, averageKbps, megabytes]) => ({
  rung,
  averageBandwidth: averageKbps * 1000,
  bandwidth: averageKbps * 1250,
  megabytes,
  megabytesPerHour: megabytes * 3,
}));
const rungOf = (estimate: ReturnType<typeof estimateAutoCost>) => [estimate?.low.rung, estimate?.high.rung];

describe("what a film will likely cost on Auto", () => {
  it("follows the player on a steady link: the rung it climbs to, up to the one it keeps", () => {
    // 500 kbps: 240p's peak (344) fits 70 % (350); 240p's average fits 95 % and 360p's (550) does not.
    expect(rungsForLink(rungs, 500)).toMatchObject({ low: { rung: 240 }, high: { rung: 240 } });
    // 250 kbps: nothing's peak fits 175, so the lowest; 144p's average fits 237.
    expect(rungsForLink(rungs, 250)).toMatchObject({ low: { rung: 144 }, high: { rung: 144 } });
    // 800 kbps: climbs to 240p (360p's peak 688 > 560), keeps 360p (550 ≤ 760).
    expect(rungsForLink(rungs, 800)).toMatchObject({ low: { rung: 240 }, high: { rung: 360 } });
    expect(rungsForLink(rungs, 100_000)).toMatchObject({ low: { rung: 720 }, high: { rung: 720 } });
  });

  it("uses the link the device reports before anything else", () => {
    const estimate = estimateAutoCost(rungs, { linkKbps: 500, playedRungs: [720, 720] });
    expect(estimate?.basis).toBe("link");
    expect(rungOf(estimate)).toEqual([240, 240]);
    expect(estimate?.high.megabytes).toBe(40);
  });

  it("falls back on what this device played before, within what may be played now", () => {
    expect(estimateAutoCost(rungs, { linkKbps: null, playedRungs: [360, 240, 360] })).toMatchObject({
      basis: "history",
      low: { rung: 240 },
      high: { rung: 360 },
    });
    // A rung this viewer may no longer play (data saver, a plan) stands for the highest one below it.
    const saver = rungs.slice(0, 2);
    expect(rungOf(estimateAutoCost(saver, { linkKbps: null, playedRungs: [720] }))).toEqual([240, 240]);
    // Nonsense in storage is ignored.
    expect(estimateAutoCost(rungs, { linkKbps: null, playedRungs: [Number.NaN, -1] })?.basis).toBe("assumed");
  });

  it("assumes a slow mobile link when nothing is known, and says nothing for a title without rungs", () => {
    const estimate = estimateAutoCost(rungs, { linkKbps: null });
    expect(estimate?.basis).toBe("assumed");
    // 400 kbps: 144p's peak (188) fits 280, 240p's (344) does not; 240p's average (275) fits 380.
    expect(rungOf(estimate)).toEqual([144, 240]);
    expect(estimateAutoCost([], { linkKbps: 500 })).toBeNull();
    expect(estimateAutoCost(rungs, { linkKbps: 0 })?.basis).toBe("assumed");
  });
});

describe("data saver's rung", () => {
  it("is 240p wherever the link keeps it, 144p below about 300 kbps", () => {
    expect(dataSaverRung(rungs, 5000, 240)?.rung).toBe(240);
    expect(dataSaverRung(rungs, 500, 240)?.rung).toBe(240);
    expect(dataSaverRung(rungs, 290, 240)?.rung).toBe(240);
    expect(dataSaverRung(rungs, 289, 240)?.rung).toBe(144);
    expect(dataSaverRung(rungs, 250, 240)?.rung).toBe(144);
    expect(dataSaverRung(rungs, null, 240)?.rung).toBe(240);
    expect(dataSaverRung([], 500, 240)).toBeNull();
  });

  it("costs at most 150 MB an hour on the reference ladder", () => {
    const saver = dataSaverRung(rungs, 5000, 240)!;
    expect(saver.megabytesPerHour).toBeLessThanOrEqual(150);
  });
});

describe("small helpers", () => {
  it("reads the Downlink client hint in Mbps", () => {
    expect(downlinkHintKbps("0.45")).toBe(450);
    expect(downlinkHintKbps("10")).toBe(10_000);
    expect(downlinkHintKbps(null)).toBeNull();
    expect(downlinkHintKbps("")).toBeNull();
    expect(downlinkHintKbps("fast")).toBeNull();
    expect(downlinkHintKbps("0")).toBeNull();
  });

  it("remembers a viewing by the rung it played longest", () => {
    expect(
      mostPlayedRung(
        new Map([
          [240, 50],
          [360, 70],
          [144, 5],
        ]),
      ),
    ).toBe(360);
    expect(mostPlayedRung(new Map())).toBeNull();
  });

  it("shows spent bytes as MB with one decimal, never 0 once something was spent", () => {
    expect(megabytesOf(0)).toBe(0);
    expect(megabytesOf(1_000)).toBe(0.1);
    expect(megabytesOf(16_440_000)).toBe(16.4);
  });
});

describe("which family a browser that decodes AV1 plays", () => {
  // The AV1 twins of the three low rungs, at about 60 % of the H.264 rungs' bits.
  const av1 = rungs.slice(0, 3).map((rung) => ({
    ...rung,
    averageBandwidth: rung.averageBandwidth * 0.6,
    bandwidth: rung.bandwidth * 0.6,
  }));

  it("plays AV1 where the link holds a rung the AV1 family has", () => {
    // 500 kbps holds H.264's 240p; 600 holds 360p (its 550 kbps average within 95 %).
    expect(playsAv1Family(rungs, av1, { linkKbps: 500, dataSaver: false })).toBe(true);
    expect(playsAv1Family(rungs, av1, { linkKbps: 600, dataSaver: false })).toBe(true);
    // Unknown links are a slow mobile one.
    expect(playsAv1Family(rungs, av1, { linkKbps: null, dataSaver: false })).toBe(true);
  });

  it("plays H.264 on a link fast enough for rungs without an AV1 twin, unless data saver is on", () => {
    expect(playsAv1Family(rungs, av1, { linkKbps: 1200, dataSaver: false })).toBe(false);
    expect(playsAv1Family(rungs, av1, { linkKbps: 5000, dataSaver: false })).toBe(false);
    expect(playsAv1Family(rungs, av1, { linkKbps: 5000, dataSaver: true })).toBe(true);
  });

  it("plays H.264 when the title has no AV1 rung (yet)", () => {
    expect(playsAv1Family(rungs, [], { linkKbps: 300, dataSaver: true })).toBe(false);
  });
});
