import type { MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { ErrorPage } from "~/components/layout/error-page";

export const meta: MetaFunction = () => [{ title: "Not Found — Kallo" }];

/** Every path no other route claims: the Not Found page, with status 404. */
export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <ErrorPage kind="notFound" status={404} />;
}
