// The call graph's ground truth for Go, read with go/ast (for call_graph_go.py).
//
//	go run benchmarks/call_graph_truth.go DIR FILE...   (one package's files) -> JSON
//
// Nodes are named as the product names its blocks: a function ["f"], a type ["T"], a
// method ["T", "m"]. An edge is a call (or a function passed as an argument) whose target
// is certain from the source alone: a package-level function by its bare name (never
// shadowed by a parameter or local), a method on the receiver, on a parameter, variable
// or struct field whose declared type is a package type, or on `T{}` / `&T{}` / `NewT()`'s
// result assigned with `:=` (through embedded structs). A conversion `T(x)` is no call;
// calls through interfaces and other packages are left out (dynamic or not the package's).
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

type typeInfo struct {
	methods  map[string]bool
	fields   map[string]string // field name -> package type name
	embedded []string
}

type pkg struct {
	funcs map[string]bool
	types map[string]*typeInfo
	// the package type a function returns first (``NewT() *T``)
	returns map[string]string
}

func typeName(expr ast.Expr) string {
	switch t := expr.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	}
	return ""
}

func collect(files []*ast.File) *pkg {
	p := &pkg{map[string]bool{}, map[string]*typeInfo{}, map[string]string{}}
	info := func(name string) *typeInfo {
		if p.types[name] == nil {
			p.types[name] = &typeInfo{map[string]bool{}, map[string]string{}, nil}
		}
		return p.types[name]
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) > 0 {
					info(typeName(d.Recv.List[0].Type)).methods[d.Name.Name] = true
				} else {
					p.funcs[d.Name.Name] = true
					if d.Type.Results != nil && len(d.Type.Results.List) > 0 {
						p.returns[d.Name.Name] = typeName(d.Type.Results.List[0].Type)
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					t := info(ts.Name.Name)
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							name := typeName(field.Type)
							if len(field.Names) == 0 {
								t.embedded = append(t.embedded, name)
							}
							for _, n := range field.Names {
								t.fields[n.Name] = name
							}
						}
					}
				}
			}
		}
	}
	return p
}

// The type declaring method m for a value of type t, through embedded structs.
func (p *pkg) method(t, m string, depth int) string {
	info := p.types[t]
	if info == nil || depth > 10 {
		return ""
	}
	if info.methods[m] {
		return t
	}
	for _, e := range info.embedded {
		if found := p.method(e, m, depth+1); found != "" {
			return found
		}
	}
	return ""
}

func (p *pkg) field(t, name string, depth int) string {
	info := p.types[t]
	if info == nil || depth > 10 {
		return ""
	}
	if f, ok := info.fields[name]; ok {
		return f
	}
	for _, e := range info.embedded {
		if found := p.field(e, name, depth+1); found != "" {
			return found
		}
	}
	return ""
}

type function struct {
	p      *pkg
	locals map[string]string // name -> package type name, "" when unknown
	calls  map[string][]string
}

func (fn *function) bind(name *ast.Ident, typ string) {
	if name != nil && name.Name != "_" {
		fn.locals[name.Name] = typ
	}
}

// The package type of an expression, where the source gives it.
func (fn *function) typeOf(expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.Ident:
		return fn.locals[e.Name]
	case *ast.UnaryExpr:
		return fn.typeOf(e.X)
	case *ast.CompositeLit:
		return typeName(e.Type)
	case *ast.ParenExpr:
		return fn.typeOf(e.X)
	case *ast.SelectorExpr:
		if owner := fn.typeOf(e.X); owner != "" {
			return fn.p.field(owner, e.Sel.Name, 0)
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			if _, local := fn.locals[id.Name]; !local && fn.p.funcs[id.Name] {
				return fn.p.returns[id.Name]
			}
		}
	}
	return ""
}

func (fn *function) target(expr ast.Expr) []string {
	switch e := expr.(type) {
	case *ast.Ident:
		if _, local := fn.locals[e.Name]; !local && fn.p.funcs[e.Name] {
			return []string{e.Name}
		}
	case *ast.SelectorExpr:
		if owner := fn.typeOf(e.X); owner != "" {
			if home := fn.p.method(owner, e.Sel.Name, 0); home != "" {
				return []string{home, e.Sel.Name}
			}
		}
	}
	return nil
}

func (fn *function) add(found []string) {
	if found != nil {
		key, _ := json.Marshal(found)
		fn.calls[string(key)] = found
	}
}

func (fn *function) params(fields *ast.FieldList) {
	if fields == nil {
		return
	}
	for _, field := range fields.List {
		for _, n := range field.Names {
			fn.bind(n, typeName(field.Type))
		}
	}
}

func (fn *function) visit(node ast.Node) bool {
	switch n := node.(type) {
	case *ast.FuncLit:
		fn.params(n.Type.Params)
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			for i, lhs := range n.Lhs {
				typ := ""
				if len(n.Rhs) == len(n.Lhs) {
					typ = fn.typeOf(n.Rhs[i])
				}
				if id, ok := lhs.(*ast.Ident); ok {
					fn.bind(id, typ)
				}
			}
		}
	case *ast.ValueSpec:
		for _, name := range n.Names {
			fn.bind(name, typeName(n.Type))
		}
	case *ast.RangeStmt:
		if id, ok := n.Key.(*ast.Ident); ok && n.Tok == token.DEFINE {
			fn.bind(id, "")
		}
		if id, ok := n.Value.(*ast.Ident); ok && n.Tok == token.DEFINE {
			fn.bind(id, "")
		}
	case *ast.CallExpr:
		fn.add(fn.target(n.Fun))
		for _, arg := range n.Args {
			if _, ok := arg.(*ast.Ident); ok {
				fn.add(fn.target(arg))
			}
		}
	}
	return true
}

func main() {
	dir := os.Args[1]
	fset := token.NewFileSet()
	var files []*ast.File
	var names []string
	for _, name := range os.Args[2:] {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			panic(err)
		}
		files = append(files, f)
		names = append(names, name)
	}
	p := collect(files)
	home := map[string]string{} // qualname key -> file
	nodes := [][]interface{}{}
	edges := [][2][]interface{}{}
	type pending struct {
		file   string
		caller []string
		calls  map[string][]string
	}
	var all []pending
	for i, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						key, _ := json.Marshal([]string{ts.Name.Name})
						home[string(key)] = names[i]
						nodes = append(nodes, []interface{}{names[i], []string{ts.Name.Name}})
					}
				}
			case *ast.FuncDecl:
				caller := []string{d.Name.Name}
				fn := &function{p, map[string]string{}, map[string][]string{}}
				if d.Recv != nil && len(d.Recv.List) > 0 {
					caller = []string{typeName(d.Recv.List[0].Type), d.Name.Name}
					fn.params(d.Recv)
				}
				fn.params(d.Type.Params)
				fn.params(d.Type.Results)
				if d.Body != nil {
					ast.Inspect(d.Body, fn.visit)
				}
				key, _ := json.Marshal(caller)
				home[string(key)] = names[i]
				nodes = append(nodes, []interface{}{names[i], caller})
				all = append(all, pending{names[i], caller, fn.calls})
			}
		}
	}
	for _, c := range all {
		self, _ := json.Marshal(c.caller)
		for key, target := range c.calls {
			if file, ok := home[key]; ok && key != string(self) {
				edges = append(edges, [2][]interface{}{{c.file, c.caller}, {file, target}})
			}
		}
	}
	out, _ := json.Marshal(map[string]interface{}{"nodes": nodes, "edges": edges})
	os.Stdout.Write(out)
}
