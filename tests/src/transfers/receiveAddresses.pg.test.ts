import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { receiveAddressesContract } from "./ReceiveAddressesContract.ts"

receiveAddressesContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
