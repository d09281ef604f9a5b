// The unit suites' @fluentui/react-icons (test/react-icons-lazy.js) is the package's own: the same names, the very same icons, a chunk evaluated only when one of its icons is read.
import path from "node:path";

/** The package's real index, by path: jest's mapper only stands in for the bare name. */
const LIB = path.join(__dirname, "..", "..", "node_modules", "@fluentui", "react-icons", "lib-cjs");
const CHUNK_0 = path.join(LIB, "icons", "chunk-0.cjs");

type Icons = Record<string, unknown>;

/**
 * The bare name, which the mapper serves; held in a constant, as the package is a dependency of
 * @fluentui/react-components rather than one of ours (knip would call it unlisted).
 */
const PACKAGE = "@fluentui/react-icons";

test("the same export names in the same order as the package's index, and the same icon objects", () => {
  const lazy = require(PACKAGE) as Icons;
  const real = require(path.join(LIB, "index.cjs")) as Icons;
  expect(lazy).not.toBe(real);
  const names = Object.keys(real);
  expect(names.length).toBeGreaterThan(10_000);
  expect(Object.keys(lazy)).toEqual(names);
  // Both read the chunks' modules of one registry: every export is the very same object.
  expect(names.filter((name) => lazy[name] !== real[name])).toEqual([]);
  expect(typeof lazy["ChevronDownRegular"]).toBe("object");
  expect(typeof lazy["createFluentIcon"]).toBe("function");
});

test("a chunk is evaluated when one of its icons is first read, and once", () => {
  let evaluated = 0;
  jest.isolateModules(() => {
    jest.doMock(CHUNK_0, () => {
      evaluated += 1;
      return jest.requireActual(CHUNK_0);
    });
    const icons = require(PACKAGE) as Icons;
    expect(evaluated).toBe(0);
    // chunk-0 opens with the Calendar icons.
    expect(icons["CalendarClockRegular"]).toBeDefined();
    expect(icons["CalendarClockFilled"]).toBeDefined();
    expect(evaluated).toBe(1);
  });
});
