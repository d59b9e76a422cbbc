package urlnorm_test

import (
	"errors"
	"fmt"

	"github.com/fractle/mandelbot/urlnorm"
)

func ExampleParse() {
	u, err := urlnorm.Parse("HTTP://user:pw@EXAMPLE.com:80/a/../b/./%7euser?x=%2f#top")
	if err != nil {
		panic(err)
	}
	fmt.Println(u)
	fmt.Println(u.Origin())
	fmt.Println(u.RobotsURL())
	fmt.Println(u.PathAndQuery())
	fmt.Println(u.HostPort())
	// Output:
	// http://example.com/b/~user?x=%2F
	// http://example.com
	// http://example.com/robots.txt
	// /b/~user?x=%2F
	// example.com:80
}

func ExampleResolve() {
	page, _ := urlnorm.Parse("https://example.com/blog/post.html")
	for _, href := range []string{"../about", "//cdn.example.net/a.js", "?page=2", " next.html\n", "javascript:void(0)", "mailto:me@example.com"} {
		u, err := urlnorm.Resolve(page, href)
		switch {
		case errors.Is(err, urlnorm.ErrScheme):
			fmt.Println("skip:", err)
		case err != nil:
			fmt.Println("bad link:", err)
		default:
			fmt.Println(u)
		}
	}
	// Output:
	// https://example.com/about
	// https://cdn.example.net/a.js
	// https://example.com/blog/post.html?page=2
	// https://example.com/blog/next.html
	// skip: urlnorm: resolve "javascript:void(0)": scheme is not http or https: "javascript"
	// skip: urlnorm: resolve "mailto:me@example.com": scheme is not http or https: "mailto"
}

func ExampleSameScope() {
	seed, _ := urlnorm.Parse("https://www.example.co.uk/")
	link, _ := urlnorm.Parse("http://shop.example.co.uk/cart")
	for _, s := range []urlnorm.Scope{urlnorm.ScopeHost, urlnorm.ScopeDomain, urlnorm.ScopeAny} {
		fmt.Println(s, urlnorm.SameScope(seed, link, s))
	}
	// Output:
	// host false
	// domain true
	// any true
}
