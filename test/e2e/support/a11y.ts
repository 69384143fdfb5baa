import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { repoRoot } from './web-build.ts';

const reportDir = path.join(repoRoot, 'test-results/axe');

/**
 * Runs axe-core on what the page shows now and fails on any serious or critical violation.
 * Every finding, whatever its impact, is written to test-results/axe/<screen>.json for review.
 */
export async function checkA11y(page: Page, screen: string): Promise<void> {
  // Colours mid-transition (a button just clicked turning primary, a dialog fading in) are not what a person reads:
  // contrast is checked on what the page settles to (CI once measured a toggle half-way through its colour change).
  // Endless animations (spinners) never settle and are left running; one that only moves or scales (a toast's
  // countdown bar, 3 s) changes no colour, so it is not waited for.
  await page.evaluate(() => {
    const changesColour = (animation: Animation) => {
      const effect = animation.effect;
      if (!(effect instanceof KeyframeEffect)) return true;
      const properties = new Set(effect.getKeyframes().flatMap((frame) => Object.keys(frame)));
      for (const timing of ['offset', 'easing', 'composite', 'computedOffset']) properties.delete(timing);
      // A CSS transition names its one property on the animation, not in its keyframes.
      if ('transitionProperty' in animation) properties.add(String(animation.transitionProperty));
      return [...properties].some((property) => property !== 'transform' && property !== 'translate' && property !== 'scale');
    };
    return Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity && changesColour(animation))
        .map((animation) => animation.finished.catch(() => undefined)),
    );
  });
  // Violations only: axe then skips building the list of every element that passed, about a quarter of its time here.
  // Legacy mode: axe.run in the page itself. The default runs axe.runPartial in each frame, then finishRun in a blank
  // tab it opens and closes for every check (a renderer, and Playwright's setup of a page): twice the CPU and three
  // times the wait, for cross-origin frames, which the app has none of. The same rules and options, the same findings
  // (both ways compared on 91 screens of these tests).
  const results = await new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] }).analyze();
  fs.mkdirSync(reportDir, { recursive: true });
  const findings = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
  fs.writeFileSync(path.join(reportDir, `${screen}.json`), JSON.stringify({ url: page.url(), findings }, null, 2));

  const blocking = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  if (blocking.length > 0) {
    const lines = blocking.map((f) => `  ${f.impact} ${f.id}: ${f.help}\n    ${f.targets.join('\n    ')}`);
    throw new Error(`axe-core found ${blocking.length} serious or critical violation(s) on ${screen}:\n${lines.join('\n')}`);
  }
}
