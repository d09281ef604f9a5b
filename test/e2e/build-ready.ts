// Every e2e suite's first step (setupFilesAfterEnv): wait for the run's build, which globalSetup
// started without waiting for it (./build-outcome.ts), or fail with webpack's errors.
import { BUILD_WAIT_MS, waitForBuild } from "./build-outcome";

beforeAll(waitForBuild, BUILD_WAIT_MS);
