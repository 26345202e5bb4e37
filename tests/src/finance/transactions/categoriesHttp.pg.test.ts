import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { categoriesHttpSuite } from "./CategoriesHttpSuite.ts"

categoriesHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
