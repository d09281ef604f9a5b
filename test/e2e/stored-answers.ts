// The e2e suites' count of the answers a page's IndexedDB cache holds, read in the page.
import type { Page } from "playwright-core";

/** Answers the page's IndexedDB cache holds (the persistent store's index rows). */
export function storedAnswers(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("kaisha-cache-v3");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("index")) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction("index", "readonly").objectStore("index").count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}
