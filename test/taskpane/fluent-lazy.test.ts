// The unit suites' Fluent packages (test/react-icons-lazy.js, test/react-components-lazy.js) are the packages' own: the same names, the very same objects, a module they re-export evaluated only when one of its names is read.
import path from "node:path";

type Exports = Record<string, unknown>;

/** Where Fluent's packages are installed. */
const FLUENT = path.join(__dirname, "..", "..", "node_modules", "@fluentui");

/** One stand-in: the bare name the mapper serves and what it is checked against. */
interface StandInCase {
  /**
   * The bare name, which the mapper serves; held in a constant, as both packages are dependencies of
   * @fluentui/react-components or of ours through it (knip would call a literal import unlisted).
   */
  name: string;
  /** The package's real index, by path: jest's mapper only stands in for the bare name. */
  index: string;
  /** Fewer exports would mean the index was not run whole. */
  atLeast: number;
  /** Exports that must be there, and what kind of value each is. */
  kinds: Readonly<Record<string, string>>;
  /** A module the index re-exports that the pane never renders, and two of its names. */
  lazyModule: string;
  lazyNames: readonly [string, string];
}

const CASES: readonly StandInCase[] = [
  {
    name: "@fluentui/react-icons",
    index: path.join(FLUENT, "react-icons", "lib-cjs", "index.cjs"),
    atLeast: 10_000,
    kinds: { ChevronDownRegular: "object", createFluentIcon: "function" },
    // chunk-0 opens with the Calendar icons.
    lazyModule: path.join(FLUENT, "react-icons", "lib-cjs", "icons", "chunk-0.cjs"),
    lazyNames: ["CalendarClockRegular", "CalendarClockFilled"],
  },
  {
    name: "@fluentui/react-components",
    index: path.join(FLUENT, "react-components", "lib-commonjs", "index.cjs"),
    atLeast: 500,
    kinds: { Button: "object", FluentProvider: "object" },
    lazyModule: "@fluentui/react-carousel",
    lazyNames: ["Carousel", "CarouselCard"],
  },
];

describe.each(CASES)("$name", ({ name, index, atLeast, kinds, lazyModule, lazyNames }) => {
  test("the same export names in the same order as the package's index, and the same objects", () => {
    const lazy = require(name) as Exports;
    const real = require(index) as Exports;
    expect(lazy).not.toBe(real);
    const names = Object.keys(real);
    expect(names.length).toBeGreaterThan(atLeast);
    expect(Object.keys(lazy)).toEqual(names);
    // Both read the re-exported modules of one registry: every export is the very same object.
    expect(names.filter((n) => lazy[n] !== real[n])).toEqual([]);
    for (const [n, kind] of Object.entries(kinds)) expect(typeof lazy[n]).toBe(kind);
  });

  test("a re-exported module is evaluated when one of its names is first read, and once", () => {
    let evaluated = 0;
    jest.isolateModules(() => {
      jest.doMock(lazyModule, () => {
        evaluated += 1;
        return jest.requireActual(lazyModule);
      });
      const stood = require(name) as Exports;
      expect(evaluated).toBe(0);
      expect(stood[lazyNames[0]]).toBeDefined();
      expect(stood[lazyNames[1]]).toBeDefined();
      expect(evaluated).toBe(1);
    });
  });
});
