import { PortsMemory } from "@svc/adapters-memory"
import { dashboardSignInContract } from "./DashboardSignInContract.ts"

dashboardSignInContract("memory", PortsMemory)
