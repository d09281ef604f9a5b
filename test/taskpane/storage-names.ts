// The names the pane stores under, written out rather than imported: renaming one in the product
// would lose every analyst's saved key, its server and the pane settings, so a rename fails here.
export const KEY_STORAGE_KEY = "kaisha.apiKey";
export const KEY_BASE_URL_STORAGE_KEY = "kaisha.apiKeyBaseUrl";
export const SETTINGS_STORAGE_KEY = "kaisha.settings";
