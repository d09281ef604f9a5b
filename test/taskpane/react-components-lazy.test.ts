// The unit suites' @fluentui/react-components (test/react-components-lazy.js) is the package's own: the same names, the very same objects, a re-exported package evaluated only when one of its names is read.
import path from "node:path";

/** The package's real index, by path: jest's mapper only stands in for the bare name. */
const INDEX = path.join(
  __dirname,
  "..",
  "..",
  "node_modules",
  "@fluentui",
  "react-components",
  "lib-commonjs",
  "index.cjs",
);

/** The bare name, which the mapper serves. */
const PACKAGE = "@fluentui/react-components";
/**
 * A package it re-exports that the pane never renders; held in a constant, as it is a dependency of
 * @fluentui/react-components rather than one of ours (knip would call it unlisted).
 */
const CAROUSEL = "@fluentui/react-carousel";

type Exports = Record<string, unknown>;

test("the same export names in the same order as the package's index, and the same objects", () => {
  const lazy = require(PACKAGE) as Exports;
  const real = require(INDEX) as Exports;
  expect(lazy).not.toBe(real);
  const names = Object.keys(real);
  expect(names.length).toBeGreaterThan(500);
  expect(Object.keys(lazy)).toEqual(names);
  // Both read the re-exported packages of one registry: every export is the very same object.
  expect(names.filter((name) => lazy[name] !== real[name])).toEqual([]);
  expect(lazy["Button"]).toBeDefined();
  expect(typeof lazy["FluentProvider"]).toBe("object");
});

test("a re-exported package is evaluated when one of its names is first read, and once", () => {
  let evaluated = 0;
  jest.isolateModules(() => {
    jest.doMock(CAROUSEL, () => {
      evaluated += 1;
      return jest.requireActual(CAROUSEL);
    });
    const fluent = require(PACKAGE) as Exports;
    expect(evaluated).toBe(0);
    expect(fluent["Carousel"]).toBeDefined();
    expect(fluent["CarouselCard"]).toBeDefined();
    expect(evaluated).toBe(1);
  });
});
