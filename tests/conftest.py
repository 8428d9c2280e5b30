"""The test run compiles the kernels in its own process (and tests that do it in the
background set it up themselves): no background compilation started by the widgets."""
import os

os.environ["OBLIQUE_BACKGROUND_COMPILE"] = "0"
