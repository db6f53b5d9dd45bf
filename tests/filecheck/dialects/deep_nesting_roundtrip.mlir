// What mmatom-opt prints it reads back: 90 nested regions are 90 levels of nesting in the generic form's `({`
// as in the custom form's `{` (issue 26: the generic form counted two levels each and was refused at 50).
// RUN: mmatom-opt %s --print-op-generic | mmatom-opt --print-op-generic | filecheck %s

// CHECK-LABEL: "func.func"() <{sym_name = "deep", function_type = () -> ()}> ({
// CHECK-COUNT-90: "scf.execute_region"() ({
// CHECK: "func.return"() : () -> ()

builtin.module {
  func.func @deep() {
    scf.execute_region {
      scf.execute_region {
        scf.execute_region {
          scf.execute_region {
            scf.execute_region {
              scf.execute_region {
                scf.execute_region {
                  scf.execute_region {
                    scf.execute_region {
                      scf.execute_region {
                        scf.execute_region {
                          scf.execute_region {
                            scf.execute_region {
                              scf.execute_region {
                                scf.execute_region {
                                  scf.execute_region {
                                    scf.execute_region {
                                      scf.execute_region {
                                        scf.execute_region {
                                          scf.execute_region {
                                            scf.execute_region {
                                              scf.execute_region {
                                                scf.execute_region {
                                                  scf.execute_region {
                                                    scf.execute_region {
                                                      scf.execute_region {
                                                        scf.execute_region {
                                                          scf.execute_region {
                                                            scf.execute_region {
                                                              scf.execute_region {
                                                                scf.execute_region {
                                                                  scf.execute_region {
                                                                    scf.execute_region {
                                                                      scf.execute_region {
                                                                        scf.execute_region {
                                                                          scf.execute_region {
                                                                            scf.execute_region {
                                                                              scf.execute_region {
                                                                                scf.execute_region {
                                                                                  scf.execute_region {
                                                                                    scf.execute_region {
                                                                                      scf.execute_region {
                                                                                        scf.execute_region {
                                                                                          scf.execute_region {
                                                                                            scf.execute_region {
                                                                                              scf.execute_region {
                                                                                                scf.execute_region {
                                                                                                  scf.execute_region {
                                                                                                    scf.execute_region {
                                                                                                      scf.execute_region {
                                                                                                        scf.execute_region {
                                                                                                          scf.execute_region {
                                                                                                            scf.execute_region {
                                                                                                              scf.execute_region {
                                                                                                                scf.execute_region {
                                                                                                                  scf.execute_region {
                                                                                                                    scf.execute_region {
                                                                                                                      scf.execute_region {
                                                                                                                        scf.execute_region {
                                                                                                                          scf.execute_region {
                                                                                                                            scf.execute_region {
                                                                                                                              scf.execute_region {
                                                                                                                                scf.execute_region {
                                                                                                                                  scf.execute_region {
                                                                                                                                    scf.execute_region {
                                                                                                                                      scf.execute_region {
                                                                                                                                        scf.execute_region {
                                                                                                                                          scf.execute_region {
                                                                                                                                            scf.execute_region {
                                                                                                                                              scf.execute_region {
                                                                                                                                                scf.execute_region {
                                                                                                                                                  scf.execute_region {
                                                                                                                                                    scf.execute_region {
                                                                                                                                                      scf.execute_region {
                                                                                                                                                        scf.execute_region {
                                                                                                                                                          scf.execute_region {
                                                                                                                                                            scf.execute_region {
                                                                                                                                                              scf.execute_region {
                                                                                                                                                                scf.execute_region {
                                                                                                                                                                  scf.execute_region {
                                                                                                                                                                    scf.execute_region {
                                                                                                                                                                      scf.execute_region {
                                                                                                                                                                        scf.execute_region {
                                                                                                                                                                          scf.execute_region {
                                                                                                                                                                            scf.execute_region {
                                                                                                                                                                              scf.execute_region {
                                                                                                                                                                                scf.execute_region {
                                                                                                                                                                                  scf.execute_region {
                                                                                                                                                                                    scf.execute_region {
                                                                                                                                                                                      scf.execute_region {
                                                                                                                                                                                        scf.yield
                                                                                                                                                                                      }
                                                                                                                                                                                      scf.yield
                                                                                                                                                                                    }
                                                                                                                                                                                    scf.yield
                                                                                                                                                                                  }
                                                                                                                                                                                  scf.yield
                                                                                                                                                                                }
                                                                                                                                                                                scf.yield
                                                                                                                                                                              }
                                                                                                                                                                              scf.yield
                                                                                                                                                                            }
                                                                                                                                                                            scf.yield
                                                                                                                                                                          }
                                                                                                                                                                          scf.yield
                                                                                                                                                                        }
                                                                                                                                                                        scf.yield
                                                                                                                                                                      }
                                                                                                                                                                      scf.yield
                                                                                                                                                                    }
                                                                                                                                                                    scf.yield
                                                                                                                                                                  }
                                                                                                                                                                  scf.yield
                                                                                                                                                                }
                                                                                                                                                                scf.yield
                                                                                                                                                              }
                                                                                                                                                              scf.yield
                                                                                                                                                            }
                                                                                                                                                            scf.yield
                                                                                                                                                          }
                                                                                                                                                          scf.yield
                                                                                                                                                        }
                                                                                                                                                        scf.yield
                                                                                                                                                      }
                                                                                                                                                      scf.yield
                                                                                                                                                    }
                                                                                                                                                    scf.yield
                                                                                                                                                  }
                                                                                                                                                  scf.yield
                                                                                                                                                }
                                                                                                                                                scf.yield
                                                                                                                                              }
                                                                                                                                              scf.yield
                                                                                                                                            }
                                                                                                                                            scf.yield
                                                                                                                                          }
                                                                                                                                          scf.yield
                                                                                                                                        }
                                                                                                                                        scf.yield
                                                                                                                                      }
                                                                                                                                      scf.yield
                                                                                                                                    }
                                                                                                                                    scf.yield
                                                                                                                                  }
                                                                                                                                  scf.yield
                                                                                                                                }
                                                                                                                                scf.yield
                                                                                                                              }
                                                                                                                              scf.yield
                                                                                                                            }
                                                                                                                            scf.yield
                                                                                                                          }
                                                                                                                          scf.yield
                                                                                                                        }
                                                                                                                        scf.yield
                                                                                                                      }
                                                                                                                      scf.yield
                                                                                                                    }
                                                                                                                    scf.yield
                                                                                                                  }
                                                                                                                  scf.yield
                                                                                                                }
                                                                                                                scf.yield
                                                                                                              }
                                                                                                              scf.yield
                                                                                                            }
                                                                                                            scf.yield
                                                                                                          }
                                                                                                          scf.yield
                                                                                                        }
                                                                                                        scf.yield
                                                                                                      }
                                                                                                      scf.yield
                                                                                                    }
                                                                                                    scf.yield
                                                                                                  }
                                                                                                  scf.yield
                                                                                                }
                                                                                                scf.yield
                                                                                              }
                                                                                              scf.yield
                                                                                            }
                                                                                            scf.yield
                                                                                          }
                                                                                          scf.yield
                                                                                        }
                                                                                        scf.yield
                                                                                      }
                                                                                      scf.yield
                                                                                    }
                                                                                    scf.yield
                                                                                  }
                                                                                  scf.yield
                                                                                }
                                                                                scf.yield
                                                                              }
                                                                              scf.yield
                                                                            }
                                                                            scf.yield
                                                                          }
                                                                          scf.yield
                                                                        }
                                                                        scf.yield
                                                                      }
                                                                      scf.yield
                                                                    }
                                                                    scf.yield
                                                                  }
                                                                  scf.yield
                                                                }
                                                                scf.yield
                                                              }
                                                              scf.yield
                                                            }
                                                            scf.yield
                                                          }
                                                          scf.yield
                                                        }
                                                        scf.yield
                                                      }
                                                      scf.yield
                                                    }
                                                    scf.yield
                                                  }
                                                  scf.yield
                                                }
                                                scf.yield
                                              }
                                              scf.yield
                                            }
                                            scf.yield
                                          }
                                          scf.yield
                                        }
                                        scf.yield
                                      }
                                      scf.yield
                                    }
                                    scf.yield
                                  }
                                  scf.yield
                                }
                                scf.yield
                              }
                              scf.yield
                            }
                            scf.yield
                          }
                          scf.yield
                        }
                        scf.yield
                      }
                      scf.yield
                    }
                    scf.yield
                  }
                  scf.yield
                }
                scf.yield
              }
              scf.yield
            }
            scf.yield
          }
          scf.yield
        }
        scf.yield
      }
      scf.yield
    }
    func.return
  }
}
