import { PortsMemory } from "@svc/adapters-memory"
import { spendErrorsContract } from "./SpendErrorsContract.ts"

spendErrorsContract("in-memory", PortsMemory)
