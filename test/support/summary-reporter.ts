import type { Reporter, TestModule } from 'vitest/node';

// Prints the slowest files (the suite must stay within CI's 15 minutes) and one plain closing line
// ("tests: N passed, N failed, N skipped") that CI reads, and in CI fails the run if anything skipped: every suite must
// really run there.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const slowest = [...testModules].sort((a, b) => b.diagnostic().duration - a.diagnostic().duration).slice(0, 12);
    console.log('\nslowest files:');
    for (const module of slowest) console.log(`  ${(module.diagnostic().duration / 1000).toFixed(1).padStart(6)} s  ${module.moduleId.replace(`${process.cwd()}/`, '')}`);
    const inCI = process.env.CI === 'true' || process.env.CI === '1';
    if (inCI && skipped > 0) {
      console.log(`\n${skipped} test(s) skipped in CI; every suite must run here.`);
      process.exitCode = 1;
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
