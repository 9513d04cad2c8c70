import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { showToast } from "~/components/ui/toaster";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import {
  createCategory,
  deleteCategory,
  listCategoriesWithCounts,
  renameCategory,
  setCategoryImage,
} from "~/services/categories.server";
import { clientAddress } from "~/utils/client.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { t } = await getRequestT(request, "admin");
  return { metaTitle: t("categories.metaTitle"), categories: listCategoriesWithCounts(getDb()) };
}

type Failure = { intent: string; categoryId: string | null; error: string; count?: number; name?: string };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const categoryId = form.get("categoryId") ? String(form.get("categoryId")) : null;
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  const db = getDb();
  const fail = (failure: Omit<Failure, "intent" | "categoryId">) =>
    data<Failure>({ intent, categoryId, ...failure }, { status: 400 });
  const done = (key: string) => redirectWithToast("/admin/moviecategory", { type: "success", key }, { status: 303 });

  if (intent === "create") {
    const name = String(form.get("name") ?? "");
    const result = createCategory(db, name, actor);
    return result.ok ? done("admin:categories.created") : fail({ error: result.error, name: name.slice(0, 100) });
  }
  if (!categoryId) return fail({ error: "admin:errors.unknownAction" });
  if (intent === "rename") {
    const name = String(form.get("name") ?? "");
    const result = renameCategory(db, categoryId, name, actor);
    return result.ok ? done("admin:categories.renamed") : fail({ error: result.error, name: name.slice(0, 100) });
  }
  if (intent === "delete") {
    const moveTo = String(form.get("moveTo") ?? "") || undefined;
    const result = deleteCategory(db, categoryId, actor, { moveTo });
    return result.ok ? done("admin:categories.deleted") : fail({ error: result.error, count: result.count });
  }
  if (intent === "image") {
    const image = form.get("image");
    const file =
      typeof image === "object" && image
        ? { name: image.name, bytes: new Uint8Array(await image.arrayBuffer()) }
        : { name: "", bytes: new Uint8Array() };
    const result = await setCategoryImage(db, categoryId, file, actor);
    return result.ok ? done("admin:categories.imageSet") : fail({ error: result.error });
  }
  return fail({ error: "admin:errors.unknownAction" });
}

const input = "rounded border border-white/15 bg-ink-900 px-3 py-1.5 text-sm text-slate-50";
const button = "rounded border border-white/20 px-3 py-1.5 text-xs hover:bg-white/5";

export default function MovieCategories() {
  const { t } = useTranslation("admin");
  const { categories } = useLoaderData<typeof loader>();
  const failure = useActionData<Failure>();
  useEffect(() => {
    if (failure)
      showToast({
        type: "error",
        key: failure.error,
        values: failure.count !== undefined ? { count: failure.count } : undefined,
      });
  }, [failure]);
  const errorFor = (intent: string, categoryId: string | null) =>
    failure && failure.intent === intent && failure.categoryId === categoryId ? (
      <p role="alert" className="text-sm text-red-300" data-category-error={intent}>
        {t(failure.error, { count: failure.count ?? 0 })}
      </p>
    ) : null;

  return (
    <section>
      <h1 className="text-3xl font-bold">{t("categories.title")}</h1>
      <Form
        method="post"
        className="mt-4 flex flex-wrap items-end gap-2 rounded-lg border border-white/10 bg-ink-900/60 p-4"
      >
        <label className="grid gap-1 text-sm">
          <span className="text-slate-200">{t("categories.newName")}</span>
          <input
            name="name"
            required
            maxLength={60}
            defaultValue={failure?.intent === "create" ? failure.name : undefined}
            className={input}
          />
        </label>
        <button
          type="submit"
          name="intent"
          value="create"
          className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("categories.create")}
        </button>
        {errorFor("create", null)}
      </Form>

      <ul className="mt-6 grid gap-4">
        {categories.map((category) => (
          <li key={category.id} data-category-id={category.id} className="rounded-lg border border-white/10 p-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="text-lg font-semibold">{category.name}</h2>
              <p className="text-sm text-slate-300">
                {t("categories.titleCount", { count: category.titles })} ·{" "}
                {category.imageFile ? t("categories.hasImage") : t("categories.noImage")}
              </p>
            </div>
            <div className="mt-3 grid gap-3 md:grid-cols-3">
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="categoryId" value={category.id} />
                <label className="grid gap-1 text-sm">
                  <span className="text-slate-200">{t("categories.renameLabel", { name: category.name })}</span>
                  <input name="name" required maxLength={60} defaultValue={category.name} className={input} />
                </label>
                <button type="submit" name="intent" value="rename" className={button}>
                  {t("categories.rename")}
                </button>
                {errorFor("rename", category.id)}
              </Form>
              <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="categoryId" value={category.id} />
                <label className="grid gap-1 text-sm">
                  <span className="text-slate-200">{t("categories.imageLabel", { name: category.name })}</span>
                  <input type="file" name="image" accept=".jpg,.jpeg,.png,image/jpeg,image/png" className="text-xs" />
                </label>
                <button type="submit" name="intent" value="image" className={button}>
                  {t("categories.upload")}
                </button>
                {errorFor("image", category.id)}
              </Form>
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="categoryId" value={category.id} />
                {category.titles > 0 ? (
                  <label className="grid gap-1 text-sm">
                    <span className="text-slate-200">{t("categories.moveTo", { name: category.name })}</span>
                    <select name="moveTo" defaultValue="" className={input}>
                      <option value="">{t("categories.keepTitles")}</option>
                      {categories
                        .filter((other) => other.id !== category.id)
                        .map((other) => (
                          <option key={other.id} value={other.id}>
                            {other.name}
                          </option>
                        ))}
                    </select>
                  </label>
                ) : null}
                <button
                  type="submit"
                  name="intent"
                  value="delete"
                  aria-label={t("categories.deleteNamed", { name: category.name })}
                  className="rounded border border-red-400/40 px-3 py-1.5 text-xs text-red-200 hover:bg-red-950"
                >
                  {category.titles > 0 ? t("categories.moveAndDelete") : t("categories.delete")}
                </button>
                {errorFor("delete", category.id)}
              </Form>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
