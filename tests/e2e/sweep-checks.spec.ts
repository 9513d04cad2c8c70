import { expect, test, type Page } from "@playwright/test";
import { lookAtPage, openHeaderMenus } from "./fixtures/sweep-checks";

/**
 * The page sweep's own checks (fixtures/sweep-checks.ts), on pages made for
 * them: each finds what it looks for, and a page without it passes — so a
 * sweep with no findings means the pages are right, not that it looked at
 * nothing.
 */

const KEYS = ["nav.home", "continue.title"];

test.use({ viewport: { width: 360, height: 740 } });

async function show(page: Page, body: string) {
  await page.setContent(
    `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
     <style>body{margin:0;font:16px sans-serif} header{position:sticky;top:0;background:#222;height:48px}
     details{position:relative;display:inline-block} summary{display:block;width:40px;height:40px}</style></head>
     <body>${body}</body></html>`,
  );
}

test("a page that fits, shows words and whose controls can be tapped has no finding", async ({ page }) => {
  await show(
    page,
    `<header><details><summary aria-label="Account menu">A</summary>
       <div style="position:absolute;left:0;top:40px;width:200px"><a href="/profile">Profile</a></div></details></header>
     <main><p>Home</p><button>Play</button><a href="/movies">Movies</a></main>`,
  );
  expect(await lookAtPage(page, KEYS, { covered: true })).toEqual([]);
  expect(await openHeaderMenus(page)).toEqual([]);
});

test("a page wider than the phone is found, with what sticks out", async ({ page }) => {
  await show(page, `<main><table id="plans" style="width:640px"><tr><td>Pro</td></tr></table></main>`);
  const problems = await lookAtPage(page, KEYS, { covered: false });
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/^page is 640px wide on a 360px screen \(<table#plans>/);
});

test("what makes a page too wide is named, not what scrolls inside its own box", async ({ page }) => {
  await show(
    page,
    `<main><ul style="display:flex;overflow-x:auto;margin:0;padding:0"><li style="flex:none;width:300px">Home</li><li style="flex:none;width:300px">Movies</li></ul>
     <form><label>Plan <select name="plan" style="width:400px"><option>Basic</option></select></label></form></main>`,
  );
  const problems = await lookAtPage(page, KEYS, { covered: false });
  expect(problems).toEqual([expect.stringMatching(/^page is \d+px wide on a 360px screen \(<label>Plan Basic\)$/)]);
});

test("a control under another element where a finger lands is found", async ({ page }) => {
  await show(
    page,
    `<main><button id="play" style="position:absolute;left:10px;top:100px;width:80px;height:40px">Play</button>
     <div id="bell" style="position:absolute;left:0;top:90px;width:120px;height:60px"></div></main>`,
  );
  expect(await lookAtPage(page, KEYS, { covered: true })).toEqual([
    expect.stringMatching(/^<button#play>Play is covered by <div#bell>/),
  ]);
  // Only when asked to look.
  expect(await lookAtPage(page, KEYS, { covered: false })).toEqual([]);
});

test("a control off the side of the screen is found, further down the page too", async ({ page }) => {
  await show(
    page,
    // Off the left edge: the page is no wider for it, and nothing can scroll to it.
    `<main><div style="height:2000px"></div>
     <div style="position:relative"><a href="/payment" style="position:absolute;left:-120px">Payment</a></div></main>`,
  );
  expect(await lookAtPage(page, KEYS, { covered: true })).toEqual([
    expect.stringMatching(/^<a href="\/payment">Payment is off the screen/),
  ]);
});

test("a control cut off inside a table's cell is found; one reached by scrolling the table is not", async ({
  page,
}) => {
  await show(
    page,
    `<main><div style="overflow-x:auto;width:360px"><table style="width:700px"><tr>
       <td>Musa</td><td style="width:600px"><a href="/admin/account/1">Open</a></td>
       <td><div style="overflow:hidden;width:80px"><form id="block"><select style="width:200px"><option>A week</option></select><button>Block</button></form></div></td>
     </tr></table></div></main>`,
  );
  expect(await lookAtPage(page, KEYS, { covered: false })).toEqual([
    // The button wraps under it, whole.
    expect.stringMatching(/^<select>A week is cut off by <div>$/),
  ]);
  await page.locator("#block").evaluate((form) => (form.parentElement!.style.width = "auto"));
  expect(await lookAtPage(page, KEYS, { covered: false })).toEqual([]);
});

test("a translation key or an unfilled placeholder shown as text is found, in labels too", async ({ page }) => {
  await show(page, `<main><h1>nav.home</h1><p>Welcome, {{name}}</p><img alt="continue.title" src="data:,"></main>`);
  expect((await lookAtPage(page, KEYS, { covered: false })).sort()).toEqual([
    'shows "continue.title" instead of words',
    'shows "nav.home" instead of words',
    'shows "{{name}}" instead of words',
  ]);
});

test("a top-bar menu that opens off the screen is found", async ({ page }) => {
  await show(
    page,
    `<header><span style="display:inline-block;width:300px"></span><details><summary aria-label="Account menu">A</summary>
       <div style="position:absolute;left:0;top:40px;width:200px"><a href="/history" style="display:block">History</a></div></details></header>`,
  );
  expect(await openHeaderMenus(page)).toEqual([expect.stringMatching(/^"Account menu" menu: History at x 300–500/)]);
});
