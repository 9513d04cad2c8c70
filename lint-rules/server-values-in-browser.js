/**
 * No value from a `.server` module in code the browser runs.
 *
 * Remix's compiler empties every `*.server.*` module in the browser bundle
 * (`module.exports = {}`), so a constant or function imported from one is
 * `undefined` there, while TypeScript and the server render are satisfied: the
 * page renders on the server, then breaks once it hydrates. Types are fine
 * (they are erased), and so is a value used only by a route's `loader`,
 * `action` or `headers`: the browser's copy of a route keeps only its browser
 * exports (default, meta, links, handle, ErrorBoundary, Layout,
 * shouldRevalidate, clientLoader, clientAction, HydrateFallback) and what they
 * reach, as esbuild drops the rest statement by statement.
 *
 * The rule follows the same path: from the statements the browser keeps (those
 * exports, any top-level statement that does something when the module loads)
 * to every top-level declaration they name, and reports each value from a
 * `.server` module met on the way. In a module that is not a route, every
 * export may reach the browser, so every use counts. A route with no browser
 * export is never loaded by the browser.
 */

const SERVER_MODULE = /\.server(\.[cm]?[jt]sx?)?$/;
const SERVER_FILE = /\.server\.[cm]?[jt]sx?$/;
const BROWSER_ROUTE_EXPORTS = new Set([
  "clientAction",
  "clientLoader",
  "ErrorBoundary",
  "HydrateFallback",
  "Layout",
  "default",
  "handle",
  "links",
  "meta",
  "shouldRevalidate",
]);

/** TypeScript nodes that hold a type: a name under one of them is erased from the JavaScript. */
const TYPE_NODES = new Set([
  "TSTypeAnnotation",
  "TSTypeQuery",
  "TSTypeReference",
  "TSTypeParameterInstantiation",
  "TSTypeParameterDeclaration",
  "TSTypeAliasDeclaration",
  "TSInterfaceDeclaration",
  "TSDeclareFunction",
  "TSModuleDeclaration",
  "TSIndexedAccessType",
  "TSImportType",
]);

function isTypePosition(identifier) {
  for (let node = identifier.parent; node; node = node.parent) {
    if (TYPE_NODES.has(node.type)) return true;
    if (node.type === "Program") return false;
  }
  return false;
}

/** Does running this expression when the module loads do anything (call, construct, assign)? Functions' bodies do not run. */
function hasEffects(node) {
  if (!node || typeof node !== "object") return false;
  switch (node.type) {
    case "CallExpression":
    case "NewExpression":
    case "TaggedTemplateExpression":
    case "AssignmentExpression":
    case "UpdateExpression":
    case "AwaitExpression":
    case "ImportExpression":
      return true;
    case "ArrowFunctionExpression":
    case "FunctionExpression":
      return false;
    case "ClassExpression":
    case "ClassDeclaration":
      return node.body.body.some(
        (member) => member.type === "StaticBlock" || (member.static && hasEffects(member.value)),
      );
    default:
      break;
  }
  for (const key of Object.keys(node)) {
    if (key === "parent" || key === "loc" || key === "range") continue;
    const value = node[key];
    if (Array.isArray(value)) {
      if (value.some((item) => item && typeof item.type === "string" && hasEffects(item))) return true;
    } else if (value && typeof value.type === "string" && hasEffects(value)) return true;
  }
  return false;
}

function isRouteModule(filename) {
  const normal = filename.replace(/\\/g, "/");
  return /\/app\/routes\//.test(normal) || /\/app\/root\.[jt]sx?$/.test(normal);
}

function exportedNames(statement) {
  if (statement.type === "ExportDefaultDeclaration") return ["default"];
  if (statement.type !== "ExportNamedDeclaration") return [];
  if (statement.source) return [];
  const names = statement.specifiers.map((specifier) =>
    specifier.exported.type === "Identifier" ? specifier.exported.name : specifier.exported.value,
  );
  const declaration = statement.declaration;
  if (declaration?.type === "VariableDeclaration")
    for (const declarator of declaration.declarations)
      if (declarator.id.type === "Identifier") names.push(declarator.id.name);
  if ((declaration?.type === "FunctionDeclaration" || declaration?.type === "ClassDeclaration") && declaration.id)
    names.push(declaration.id.name);
  return names;
}

/** @type {import("eslint").Rule.RuleModule} */
export default {
  meta: {
    type: "problem",
    docs: { description: "Values from `.server` modules must not reach the browser's code" },
    schema: [],
    messages: {
      serverValue:
        "'{{name}}' comes from {{source}}, which is empty in the browser: hand it to the page through the loader, or keep it in a module without .server.",
    },
  },
  create(context) {
    const filename = context.filename;
    if (SERVER_FILE.test(filename)) return {};
    const sourceCode = context.sourceCode;
    return {
      Program(program) {
        const serverValues = [];
        for (const statement of program.body) {
          if (statement.type !== "ImportDeclaration" || statement.importKind === "type") continue;
          if (!SERVER_MODULE.test(String(statement.source.value))) continue;
          for (const specifier of statement.specifiers) {
            if (specifier.importKind === "type") continue;
            for (const variable of sourceCode.getDeclaredVariables(specifier))
              serverValues.push({ variable, source: String(statement.source.value) });
          }
        }
        if (serverValues.length === 0) return;

        const statements = program.body;
        const statementOf = (node) => {
          let low = 0;
          let high = statements.length - 1;
          while (low <= high) {
            const middle = (low + high) >> 1;
            const [start, end] = statements[middle].range;
            if (node.range[0] < start) high = middle - 1;
            else if (node.range[0] >= end) low = middle + 1;
            else return middle;
          }
          return -1;
        };

        // Which top-level statements the browser keeps.
        const route = isRouteModule(filename);
        const roots = new Set();
        const localExports = new Map(); // export { a as meta }: the statement declaring `a`
        statements.forEach((statement, index) => {
          if (statement.type === "ImportDeclaration") return;
          if (!route) {
            roots.add(index);
            return;
          }
          const names = exportedNames(statement);
          if (statement.type === "ExportNamedDeclaration" && !statement.declaration && !statement.source) {
            for (const specifier of statement.specifiers) {
              const exported =
                specifier.exported.type === "Identifier" ? specifier.exported.name : specifier.exported.value;
              if (BROWSER_ROUTE_EXPORTS.has(exported)) localExports.set(specifier.local.name, true);
            }
            return;
          }
          if (names.some((name) => BROWSER_ROUTE_EXPORTS.has(name))) roots.add(index);
          else if (
            statement.type !== "FunctionDeclaration" &&
            !(statement.type === "ExportNamedDeclaration" && statement.declaration?.type === "FunctionDeclaration") &&
            !statement.type.startsWith("TS") &&
            !(statement.type === "ExportNamedDeclaration" && statement.declaration?.type?.startsWith("TS")) &&
            hasEffects(statement.type === "ExportNamedDeclaration" ? statement.declaration : statement)
          )
            roots.add(index);
        });
        const browserExportsExist = route
          ? statements.some((statement) => exportedNames(statement).some((name) => BROWSER_ROUTE_EXPORTS.has(name)))
          : true;
        if (!browserExportsExist) return;

        // Edges: a statement that names a top-level declaration keeps that declaration.
        const moduleScope = sourceCode.scopeManager.scopes.find((scope) => scope.type === "module");
        if (!moduleScope) return;
        const edges = statements.map(() => new Set());
        for (const variable of moduleScope.variables) {
          const declaring = new Set(
            variable.defs.filter((def) => def.type !== "ImportBinding").map((def) => statementOf(def.node)),
          );
          if (declaring.size === 0) continue;
          if (localExports.has(variable.name)) for (const index of declaring) roots.add(index);
          for (const reference of variable.references) {
            if (reference.isTypeReference || isTypePosition(reference.identifier)) continue;
            const from = statementOf(reference.identifier);
            if (from < 0) continue;
            for (const index of declaring) if (index !== from) edges[from].add(index);
          }
        }
        const kept = new Set(roots);
        const queue = [...roots];
        while (queue.length > 0) {
          const index = queue.pop();
          for (const next of edges[index])
            if (!kept.has(next)) {
              kept.add(next);
              queue.push(next);
            }
        }

        for (const { variable, source } of serverValues) {
          for (const reference of variable.references) {
            if (reference.isTypeReference || isTypePosition(reference.identifier)) continue;
            if (!kept.has(statementOf(reference.identifier))) continue;
            context.report({
              node: reference.identifier,
              messageId: "serverValue",
              data: { name: variable.name, source },
            });
          }
        }
      },
    };
  },
};
