// Browser tests wait on real page loads and the sandbox's first dataset generation: give them time.
// (testTimeout is a global jest option, ignored inside a project; this applies to the e2e project only.)
jest.setTimeout(120_000);
