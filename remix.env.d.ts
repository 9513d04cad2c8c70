/// <reference types="@remix-run/dev" />
import "@remix-run/node";

// Loader data types follow single fetch (v3_singleFetch is on in remix.config.js).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
