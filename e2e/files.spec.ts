// Nothing a teacher made is lost: scenario files open and save, the editor's text is kept as a
// draft and restored (visibly) on reload, a preset over unsaved edits asks first, and a TLE file
// goes into a constellation scenario where the core checks it.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, open, runAndWait, test } from './fixtures';

const root = new URL('..', import.meta.url).pathname;
const preset = (id: string) => readFileSync(`${root}scenarios/${id}.json`, 'utf8');

test('a scenario file opens, saves as itself, survives a reload as a draft, and a preset asks before replacing edits', async ({ page, consoleErrors }) => {
  await open(page);
  const json = page.locator('#scenario-json');

  // Open…
  const fileText = preset('default').replace(/"name": "[^"]*"/, '"name": "Loss lesson: PER 2%"').replace('"p": 0.01', '"p": 0.02');
  await page.getByTestId('open-file').setInputFiles({ name: 'loss-lesson.json', mimeType: 'application/json', buffer: Buffer.from(fileText) });
  await expect(page.getByTestId('file-message')).toContainText('Opened loss-lesson.json');
  await page.getByTestId('editor-tab-json').click();
  await expect(json).toHaveValue(fileText);
  await expect(page.getByTestId('unsaved')).toHaveText('');

  // An edit, then Save: the download is the editor's text, named after the scenario.
  const edited = fileText.replace('"seed": 1', '"seed": 18446744073709551615');
  await json.fill(edited);
  await expect(page.getByTestId('unsaved')).toHaveText('unsaved edits');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-file').click()]);
  expect(download.suggestedFilename()).toBe('Loss-lesson-PER-2.json');
  expect(readFileSync(await download.path(), 'utf8')).toBe(edited);
  await expect(page.getByTestId('unsaved')).toHaveText('');

  // Another edit, kept as a draft. A reload restores it from the address bar, which holds the
  // text, so there is no draft to speak of.
  const draft = edited.replace('"bytes": 20000000', '"bytes": 5000000');
  await json.fill(draft);
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('orbitcp.draft.v1') ?? '{}').text)).toBe(draft);
  await page.reload();
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('editor-tab-json').click();
  await expect(json).toHaveValue(draft);
  await expect(page.getByTestId('draft-notice')).toHaveCount(0);
  // Opened again without a scenario in the address (a bookmark of the bare page), the draft
  // comes back and the page says so.
  await open(page);
  await expect(page.getByTestId('draft-notice')).toContainText(/Restored your draft from \d\d:\d\d\./);
  await page.getByTestId('editor-tab-json').click();
  await expect(json).toHaveValue(draft);

  // A preset over the restored (unsaved) draft asks first; Cancel keeps the edits.
  await page.getByTestId('preset-ns3-dumbbell').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('unsaved edits');
  await expect(page.getByTestId('confirm-replace-cancel')).toBeFocused();
  const axe = await new AxeBuilder({ page }).include('[data-testid="confirm-replace"]').include('[data-testid="draft-notice"]').include('.file-bar').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.getByTestId('confirm-replace-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(json).toHaveValue(draft);
  // Asked again and answered yes, the preset replaces them.
  await page.getByTestId('preset-ns3-dumbbell').click();
  await page.getByTestId('confirm-replace-yes').click();
  await expect(json).toHaveValue(preset('ns3-dumbbell'));
  // Now nothing is unsaved: the next preset loads without a question.
  await page.getByTestId('preset-default').click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(json).toHaveValue(preset('default'));
  expect(consoleErrors).toEqual([]);
});

test('Discard puts back what the page opened with', async ({ page }) => {
  await open(page);
  await page.getByTestId('editor-tab-json').click();
  const json = page.locator('#scenario-json');
  const start = await json.inputValue();
  await json.fill(start.replace('"seed": 1', '"seed": 7'));
  await expect.poll(() => page.evaluate(() => localStorage.getItem('orbitcp.draft.v1') ?? '')).toContain('\\"seed\\": 7');
  // The bare page again (a reload would bring the edit back from the address bar).
  await open(page);
  await expect(page.getByTestId('draft-notice')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('draft-discard').click();
  await expect(page.getByTestId('draft-notice')).toHaveCount(0);
  await page.getByTestId('editor-tab-json').click();
  await expect(json).toHaveValue(start);
});

test('a TLE file goes into a constellation scenario, and a bad one gets the core error with its path', async ({ page }) => {
  await open(page, '#preset=leo-beijing-newyork-1600');
  const bad = 'ISS\n1 25544U 98067A   24001.50000000  .00016717  00000-0  10270-3 0  9995\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391  1234\n';
  await page.getByTestId('open-elements').setInputFiles({ name: 'iss.tle', mimeType: 'text/plain', buffer: Buffer.from(bad) });
  await expect(page.getByTestId('file-message')).toContainText('iss.tle is in topology.constellation.tle');
  await page.getByTestId('editor-tab-json').click();
  expect(JSON.parse(await page.locator('#scenario-json').inputValue()).topology.constellation.tle).toBe(bad);
  await expect(page.getByTestId('editor-json')).toContainText('topology.constellation.tle: line 2: checksum');
});

test("Hypatia's tles.txt goes in as it is (its \"34 34\" header is the grid), replaces the Walker shell, and runs", async ({ page, consoleErrors }) => {
  void consoleErrors;
  test.setTimeout(180_000);
  await open(page, '#preset=hypatia-kuiper-630');
  const canvas = page.getByTestId('globe-canvas');
  await expect(canvas).toHaveAttribute('data-satellites', '1156', { timeout: 60_000 });
  const tles = readFileSync(`${root}scenarios/hypatia/kuiper-630/tles.txt`, 'utf8');
  expect(tles.startsWith('34 34\n')).toBe(true);
  await page.getByTestId('open-elements').setInputFiles({ name: 'tles.txt', mimeType: 'text/plain', buffer: Buffer.from(tles) });
  await expect(page.getByTestId('file-message')).toContainText('tles.txt is in topology.constellation.tle: a Hypatia tles.txt, 34 planes × 34 satellites, in place of the Walker shell');
  // Five seconds at 1 s steps: quick, and enough for a route.
  const form = page.getByTestId('editor-form');
  await form.getByLabel('Duration').fill('5');
  await form.getByLabel('Routing step').fill('1');
  await page.getByTestId('editor-tab-json').click();
  const c = JSON.parse(await page.locator('#scenario-json').inputValue()).topology.constellation;
  expect(c.walker).toBeUndefined();
  expect(c.tle).toBe(tles);
  await expect(page.getByTestId('editor-json').locator('.field-errors')).toHaveCount(0);
  await runAndWait(page);
  await expect(canvas).toHaveAttribute('data-satellites', '1156');
  await expect(canvas).toHaveAttribute('data-route-nodes', /^[1-9]\d*$/);
  expect(await page.getByTestId('globe-clock').getAttribute('title')).toContain('2000-01-01');
});

test('a real 3LE and a CelesTrak OMM file join a Walker shell, and the core takes them', async ({ page }) => {
  await open(page, '#preset=leo-beijing-newyork-1600');
  const canvas = page.getByTestId('globe-canvas');
  await expect(canvas).toHaveAttribute('data-satellites', '1600', { timeout: 60_000 });
  const iss = 'ISS (ZARYA)\r\n1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992\r\n2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008\r\n';
  await page.getByTestId('open-elements').setInputFiles({ name: 'iss.3le', mimeType: 'text/plain', buffer: Buffer.from(iss) });
  await expect(page.getByTestId('file-message')).toContainText('iss.3le is in topology.constellation.tle; the Walker shell is still there');
  await expect(canvas).toHaveAttribute('data-satellites', '1601');
  const omm = [
    { OBJECT_NAME: 'ISS (ZARYA)', EPOCH: '2020-07-12T21:16:01.000416', MEAN_MOTION: 15.49507896, ECCENTRICITY: 0.0001413, INCLINATION: 51.6461, RA_OF_ASC_NODE: 221.2784, ARG_OF_PERICENTER: 89.1723, MEAN_ANOMALY: 280.4612, NORAD_CAT_ID: 25544, BSTAR: -3.1515e-5 },
    { OBJECT_NAME: 'TWIN', EPOCH: '2020-07-12T21:16:01.000416', MEAN_MOTION: 15.49507896, ECCENTRICITY: 0.0001413, INCLINATION: 51.6461, RA_OF_ASC_NODE: 221.2784, ARG_OF_PERICENTER: 89.1723, MEAN_ANOMALY: 290.4612, NORAD_CAT_ID: 25545, BSTAR: -3.1515e-5 },
  ];
  await page.getByTestId('open-elements').setInputFiles({ name: 'sats.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(omm)) });
  await expect(page.getByTestId('file-message')).toContainText('sats.json is in topology.constellation.omm');
  await expect(canvas).toHaveAttribute('data-satellites', '1603');
  await page.getByTestId('editor-tab-json').click();
  await expect(page.getByTestId('editor-json').locator('.field-errors')).toHaveCount(0);
});

test('a chain scenario offers no TLE/OMM button', async ({ page }) => {
  await open(page);
  // Only a constellation scenario offers the button.
  await expect(page.getByTestId('open-elements')).toHaveCount(0);
});

test('the page works without localStorage', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    });
  });
  await open(page);
  await page.getByTestId('editor-tab-json').click();
  const json = page.locator('#scenario-json');
  await json.fill((await json.inputValue()).replace('"seed": 1', '"seed": 3'));
  await expect(page.getByText('The draft could not be kept in this browser')).toBeVisible();
  await expect(page.getByTestId('run')).toBeEnabled();
});

test('a lesson step over unsaved edits asks first: Cancel keeps the edits and does not run, Load runs the step', async ({ page }) => {
  await open(page);
  await page.getByTestId('editor-tab-json').click();
  const json = page.locator('#scenario-json');
  const mine = (await json.inputValue()).replace('"seed": 1', '"seed": 5');
  await json.fill(mine);
  await page.getByTestId('lessons-toggle').click();
  await page.getByTestId('open-lesson-1').click();
  await page.getByTestId('run-step').click();
  await expect(page.getByRole('alertdialog')).toContainText("this lesson step's scenario");
  await page.getByTestId('confirm-replace-cancel').click();
  await expect(json).toHaveValue(mine);
  // Long enough for a queued run to have been validated and started: none was.
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'idle');
  await page.getByTestId('run-step').click();
  await page.getByTestId('confirm-replace-yes').click();
  await expect(page.getByTestId('results')).toHaveAttribute('data-run-state', 'done', { timeout: 110_000 });
  await expect(json).not.toHaveValue(mine);
});

test('a link with its own scenario offers the draft instead, and keeps it stored until answered', async ({ page }) => {
  await open(page);
  await page.getByTestId('editor-tab-json').click();
  const json = page.locator('#scenario-json');
  const mine = (await json.inputValue()).replace('"seed": 1', '"seed": 9');
  await json.fill(mine);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('orbitcp.draft.v1') ?? '')).toContain('\\"seed\\": 9');
  // A change of fragment alone does not reopen the page: reload at the new address.
  await page.goto('./#preset=ns3-dumbbell');
  await page.reload();
  await expect(page.locator('body[data-ready="true"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('draft-notice')).toContainText('You have an unsaved draft from');
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => localStorage.getItem('orbitcp.draft.v1') ?? '')).toContain('\\"seed\\": 9');
  await page.getByTestId('draft-restore').click();
  await page.getByTestId('editor-tab-json').click();
  await expect(json).toHaveValue(mine);
});
