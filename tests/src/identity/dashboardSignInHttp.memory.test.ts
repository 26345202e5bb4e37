import { PortsMemory } from "@svc/adapters-memory"
import { dashboardSignInHttpSuite } from "./DashboardSignInHttpSuite.ts"

dashboardSignInHttpSuite("memory", PortsMemory)
