import { signIn } from "./lib";
const base = "http://127.0.0.1:3701";
const cookie = await signIn(base, "/login", "viewer@bench.test");
const r = await fetch(base + process.argv[2], { headers: { cookie } });
process.stdout.write(await r.text());
