import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { categoriesRepoContract } from "./CategoriesRepoContract.ts"

categoriesRepoContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
