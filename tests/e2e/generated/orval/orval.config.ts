// orval's two configurations, both from the committed document and otherwise with orval's default
// options: its fetch client (client "fetch") and its default client (no client named: orval's
// default, axios-functions, functions that call the default axios instance). Each writes one file
// (mode "single", the default) into the ignored folder generated/, which `npm run build` compiles
// with fetch.ts and axios.ts (tsconfig.json, strict).
import { defineConfig } from "orval";

export default defineConfig({
  fetch: {
    input: "../../../../openapi/openapi.json",
    output: { target: "generated/fetch/api.ts", client: "fetch" },
  },
  axios: {
    input: "../../../../openapi/openapi.json",
    output: { target: "generated/axios/api.ts" },
  },
});
