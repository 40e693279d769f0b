// The call graph's ground truth for JavaScript, read with acorn (for call_graph_js.py).
//
//   node benchmarks/call_graph_truth.mjs ROOT FILE...   (FILE relative to ROOT) -> JSON
//
// Nodes are named as the product names its blocks: a top-level `function f` or
// `const f = () => ...` is ["f"], a class ["C"], its method ["C", "m"], a function declared
// in a function ["outer", "inner"]. An edge is a call (`f()`, `new C()`, or a function
// passed as an argument) whose target is certain from the source alone: a bare name that
// is a function of an enclosing scope, of the file, or imported by a relative `require`
// / `import`; `this.m()` / `super.m()` in a class through the class and its bases
// declared in the corpus; `C.m()` on a corpus class; `ns.f()` on a relative module.
// A parameter or local is never a target; calls on any other receiver (dynamic dispatch)
// are no edge. An anonymous callback's calls are its enclosing function's.
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import * as acorn from "acorn";
import * as walk from "acorn-walk";

const FUNCTION_TYPES = new Set(["FunctionExpression", "ArrowFunctionExpression"]);

function parseFile(root, file) {
  const text = readFileSync(join(root, file), "utf8");
  const options = { ecmaVersion: "latest", allowHashBang: true, allowReturnOutsideFunction: true };
  try {
    return acorn.parse(text, { ...options, sourceType: "module" });
  } catch {
    return acorn.parse(text, { ...options, sourceType: "script" });
  }
}

function requirePath(node) {
  const call = node?.type === "CallExpression" && node.callee.name === "require";
  const arg = call ? node.arguments[0] : null;
  return arg?.type === "Literal" && typeof arg.value === "string" ? arg.value : null;
}

function patternNames(pattern, into) {
  if (!pattern) return into;
  if (pattern.type === "Identifier") into.push(pattern.name);
  else if (pattern.type === "ObjectPattern")
    for (const p of pattern.properties) patternNames(p.type === "RestElement" ? p.argument : p.value, into);
  else if (pattern.type === "ArrayPattern") for (const e of pattern.elements) patternNames(e, into);
  else if (pattern.type === "RestElement") patternNames(pattern.argument, into);
  else if (pattern.type === "AssignmentPattern") patternNames(pattern.left, into);
  return into;
}

// One file's top-level definitions, classes, imports and exports.
function moduleOf(root, file, files) {
  const tree = parseFile(root, file);
  const mod = { file, defs: new Map(), classes: new Map(), classNodes: new Set(), imports: new Map(), exports: new Map() };
  const resolve = (spec) => {
    if (!spec.startsWith(".")) return null;
    const base = normalize(join(dirname(file), spec));
    return [base, `${base}.js`, `${base}.mjs`, join(base, "index.js")].find((c) => files.has(c)) ?? null;
  };
  const addClass = (node, name) => {
    mod.classes.set(name, { methods: methodsOf(node), superName: superName(node.superClass) });
    mod.defs.set(name, [name]);
    mod.classNodes.add(node);
  };
  const declare = (node) => {
    if (node.type === "FunctionDeclaration" && node.id) mod.defs.set(node.id.name, [node.id.name]);
    else if (node.type === "ClassDeclaration" && node.id) addClass(node, node.id.name);
    else if (node.type === "VariableDeclaration")
      for (const d of node.declarations) {
        if (d.id.type === "Identifier" && FUNCTION_TYPES.has(d.init?.type)) mod.defs.set(d.id.name, [d.id.name]);
        else if (d.id.type === "Identifier" && d.init?.type === "ClassExpression") addClass(d.init, d.id.name);
        const target = requirePath(d.init) && resolve(requirePath(d.init));
        if (target && d.id.type === "Identifier") mod.imports.set(d.id.name, { target, name: null });
        if (target && d.id.type === "ObjectPattern")
          for (const p of d.id.properties)
            if (p.type === "Property" && p.value.type === "Identifier")
              mod.imports.set(p.value.name, { target, name: p.key.name ?? p.key.value });
      }
  };
  for (const stmt of tree.body) {
    declare(stmt);
    if (stmt.type === "ImportDeclaration") {
      const target = resolve(stmt.source.value);
      for (const s of target ? stmt.specifiers : []) {
        const name = s.type === "ImportSpecifier" ? (s.imported.name ?? s.imported.value) : s.type === "ImportDefaultSpecifier" ? "default" : null;
        mod.imports.set(s.local.name, { target, name });
      }
    } else if (stmt.type === "ExportNamedDeclaration") {
      if (stmt.declaration) {
        declare(stmt.declaration);
        const id = stmt.declaration.id ?? stmt.declaration.declarations?.[0]?.id;
        if (id?.name) mod.exports.set(id.name, id.name);
      }
      if (!stmt.source) for (const s of stmt.specifiers) mod.exports.set(s.exported.name, s.local.name);
    } else if (stmt.type === "ExportDefaultDeclaration") {
      const d = stmt.declaration;
      if (d.id) declare({ ...d, type: d.type.replace("Expression", "Declaration") });
      if (d.id || d.type === "Identifier") mod.exports.set("default", d.id?.name ?? d.name);
    } else if (stmt.type === "ExpressionStatement" && stmt.expression.type === "AssignmentExpression") {
      commonjsExport(stmt.expression, mod);
    }
  }
  return { mod, tree };
}

function commonjsExport(assign, mod) {
  const left = assign.left;
  const addClass = (node) => {
    mod.classes.set(node.id.name, { methods: methodsOf(node), superName: superName(node.superClass) });
    mod.classNodes.add(node);
  };
  const isModuleExports = (n) => n?.type === "MemberExpression" && n.object.name === "module" && n.property.name === "exports";
  const right = assign.right;
  if (isModuleExports(left)) {
    if (right.type === "Identifier") mod.exports.set("default", right.name);
    if ((right.type === "ClassExpression" || right.type === "FunctionExpression") && right.id) {
      if (right.type === "ClassExpression") addClass(right);
      mod.defs.set(right.id.name, [right.id.name]);
      mod.exports.set("default", right.id.name);
    }
    if (right.type === "ObjectExpression")
      for (const p of right.properties)
        if (p.type === "Property" && p.value.type === "Identifier") mod.exports.set(p.key.name ?? p.key.value, p.value.name);
  } else if (left.type === "MemberExpression" && (isModuleExports(left.object) || left.object.name === "exports")) {
    if (right.type === "Identifier") mod.exports.set(left.property.name, right.name);
  }
}

// A name's binding in a module: ["def", file, qualname] | ["module", file] | null.
function bound(modules, file, name, depth = 0) {
  const mod = modules.get(file);
  if (!mod || depth > 5) return null;
  if (mod.defs.has(name)) return ["def", file, mod.defs.get(name)];
  const imported = mod.imports.get(name);
  if (!imported) return null;
  if (imported.name === null) {
    const target = modules.get(imported.target);
    const main = target?.exports.get("default");
    return main ? bound(modules, imported.target, main, depth + 1) ?? ["module", imported.target] : ["module", imported.target];
  }
  const local = modules.get(imported.target)?.exports.get(imported.name);
  return local ? bound(modules, imported.target, local, depth + 1) : null;
}

// A class's callable members: a getter or setter is read, never called, so no target.
function methodsOf(node) {
  const callable = node.body.body.filter((m) => m.kind !== "get" && m.kind !== "set");
  return new Set(callable.map((m) => m.key?.name ?? m.key?.value).filter(Boolean));
}

// A base class's name as written: `Base` or `module.Base` (compiled TypeScript).
function superName(node) {
  if (node?.type === "Identifier") return node.name;
  const member = node?.type === "MemberExpression" && !node.computed && node.object.type === "Identifier";
  return member ? `${node.object.name}.${node.property.name}` : null;
}

function boundPath(modules, file, path) {
  const [head, member] = path.split(".");
  const found = bound(modules, file, head);
  if (!member || found?.[0] !== "module") return member ? null : found;
  const local = modules.get(found[1]).exports.get(member);
  return local ? bound(modules, found[1], local) : null;
}

function method(modules, file, className, name, depth = 0) {
  const cls = modules.get(file)?.classes.get(className);
  if (!cls || depth > 10) return null;
  if (cls.methods.has(name)) return [file, [className, name]];
  const base = cls.superName && boundPath(modules, file, cls.superName);
  return base?.[0] === "def" ? method(modules, base[1], base[2][0], name, depth + 1) : null;
}

// Walks one file, recording each function's certain targets.
function edgesOf(modules, file, tree, out) {
  const mod = modules.get(file);
  const record = (qualname) => {
    const key = JSON.stringify([file, qualname]);
    if (!out.has(key)) out.set(key, new Set());
    return out.get(key);
  };
  const resolveName = (name, state) => {
    for (const scope of state.scopes) {
      if (scope.fns.has(name)) return [file, scope.fns.get(name)];
      if (scope.locals.has(name)) return null;
    }
    const found = bound(modules, file, name);
    return found?.[0] === "def" ? [found[1], found[2]] : null;
  };
  const resolveMember = (node, state) => {
    if (node.computed || node.property.type !== "Identifier") return null;
    const name = node.property.name;
    if (node.object.type === "ThisExpression" && state.cls && state.thisOk) return method(modules, file, state.cls, name);
    if (node.object.type === "Super" && state.cls) {
      const base = modules.get(file).classes.get(state.cls)?.superName;
      const found = base && boundPath(modules, file, base);
      return found?.[0] === "def" ? method(modules, found[1], found[2][0], name) : null;
    }
    if (node.object.type === "NewExpression") {
      const cls = target(node.object.callee, state); // `new C(...).m()`, `new ns.C(...).m()`
      return cls?.[1].length === 1 ? method(modules, cls[0], cls[1][0], name) : null;
    }
    if (node.object.type !== "Identifier") return null;
    const scope = state.scopes.find((s) => s.locals.has(node.object.name) || s.fns.has(node.object.name));
    const typed = scope?.types.get(node.object.name);
    if (scope && !typed) return null;
    const found = bound(modules, file, typed ?? node.object.name);
    if (found?.[0] === "def") return method(modules, found[1], found[2][0], name);
    if (found?.[0] === "module") {
      const local = modules.get(found[1]).exports.get(name);
      const target = local && bound(modules, found[1], local);
      return target?.[0] === "def" ? [target[1], target[2]] : null;
    }
    return null;
  };
  const target = (node, state) =>
    node.type === "Identifier" ? resolveName(node.name, state) : node.type === "MemberExpression" ? resolveMember(node, state) : null;
  const add = (found, state) => {
    if (found && state.calls) state.calls.add(JSON.stringify(found));
  };
  const scopeOf = (fn, qualname) => {
    const locals = new Set(fn.params.flatMap((p) => patternNames(p, [])));
    const fns = new Map();
    const assigned = new Map(); // name -> the classes `new`-ed into it ("?" for anything else)
    const assign = (id, value) => {
      if (id.type !== "Identifier" || (value?.type === "Literal" && value.value === null)) return;
      const cls = value?.type === "NewExpression" && value.callee.type === "Identifier" ? value.callee.name : "?";
      assigned.set(id.name, new Set([...(assigned.get(id.name) ?? []), cls]));
    };
    walk.recursive(fn.body, null, {
      Function(node) {
        if (node.type === "FunctionDeclaration" && node.id) fns.set(node.id.name, [...qualname, node.id.name]);
        // a closure's assignment retypes the variable it shares
        walk.simple(node.body, { AssignmentExpression: (a) => a.operator === "=" && assign(a.left, a.right) });
      },
      VariableDeclarator(node, _, c) {
        if (node.id.type === "Identifier" && FUNCTION_TYPES.has(node.init?.type)) fns.set(node.id.name, [...qualname, node.id.name]);
        else for (const n of patternNames(node.id, [])) locals.add(n);
        if (node.init) assign(node.id, node.init);
        if (node.init) c(node.init);
      },
      AssignmentExpression(node, _, c) {
        if (node.operator === "=") assign(node.left, node.right);
        c(node.right);
      },
      CatchClause(node, _, c) {
        for (const n of patternNames(node.param, [])) locals.add(n);
        c(node.body);
      },
      Class(node) {
        if (node.id) locals.add(node.id.name);
      },
    });
    for (const name of fns.keys()) locals.delete(name);
    const types = new Map([...assigned].filter(([n, s]) => s.size === 1 && !s.has("?") && locals.has(n)).map(([n, s]) => [n, [...s][0]]));
    return { locals, fns, types };
  };
  const enter = (fn, qualname, state, c) => {
    const named = qualname !== null;
    const scope = scopeOf(fn, named ? qualname : state.qualname ?? []);
    const arrow = fn.type === "ArrowFunctionExpression";
    const inner = {
      ...state,
      scopes: [scope, ...state.scopes],
      calls: named ? record(qualname) : state.calls,
      qualname: named ? qualname : state.qualname,
      thisOk: arrow ? state.thisOk : named && state.method,
      method: false,
    };
    c(fn.body, inner);
  };
  const visitors = {
    Function(node, state, c) {
      const name = node.type === "FunctionDeclaration" ? node.id?.name : state.pendingName;
      const qualname = name && state.qualname ? [...state.qualname, name] : name && !state.qualname ? [name] : null;
      enter(node, state.methodName ? state.methodName : qualname, { ...state, pendingName: null, methodName: null }, c);
    },
    VariableDeclarator(node, state, c) {
      if (node.init) c(node.init, { ...state, pendingName: node.id.type === "Identifier" && FUNCTION_TYPES.has(node.init.type) ? node.id.name : null });
    },
    Class(node, state, c) {
      const name = node.id?.name;
      const top = mod.classNodes.has(node);
      for (const member of node.body.body) {
        const key = member.key?.name ?? member.key?.value;
        const fn = member.value;
        if (!fn || !FUNCTION_TYPES.has(fn.type)) continue;
        if (top && key) c(fn, { ...state, cls: name, method: true, methodName: [name, key] });
        else c(fn, { ...state, calls: null, pendingName: null, methodName: null });
      }
    },
    CallExpression(node, state, c) {
      add(target(node.callee, state), state);
      for (const arg of node.arguments) if (arg.type === "Identifier" || arg.type === "MemberExpression") add(target(arg, state), state);
      walk.base.CallExpression(node, state, c);
    },
    NewExpression(node, state, c) {
      add(target(node.callee, state), state);
      walk.base.NewExpression(node, state, c);
    },
  };
  walk.recursive(tree, { scopes: [], calls: null, qualname: null, cls: null, thisOk: false, method: false }, visitors);
}

function main() {
  const [root, ...list] = process.argv.slice(2);
  const files = new Set(list);
  const modules = new Map();
  const trees = new Map();
  for (const file of list) {
    const { mod, tree } = moduleOf(root, file, files);
    modules.set(file, mod);
    trees.set(file, tree);
  }
  const out = new Map();
  for (const file of list) edgesOf(modules, file, trees.get(file), out);
  const nodes = [...out.keys()].map((k) => JSON.parse(k));
  for (const [file, mod] of modules) for (const name of mod.classes.keys()) nodes.push([file, [name]]);
  const edges = [];
  for (const [key, calls] of out) for (const call of calls) if (call !== key) edges.push([JSON.parse(key), JSON.parse(call)]);
  process.stdout.write(JSON.stringify({ nodes, edges }));
}

main();
